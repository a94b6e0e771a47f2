// Types for tools.mjs, for the TypeScript tests that import it.

export const NODE_VERSION: string;
export const CODE_SERVER_VERSION: string;
/** Absolute path of the repository. */
export const repoRoot: string;
/** The git-ignored tools folder, `<repo>/.tools`. */
export const toolsDir: string;

export interface CodeServerTools {
  /** Node 24 executable that runs code-server (and its extension host). */
  readonly node: string;
  /** code-server's JavaScript entry point. */
  readonly entry: string;
  /** Folder of `node`, for PATH. */
  readonly nodeBinDir: string;
}

/**
 * Installs Node 24 and code-server into `.tools/` unless already there (a quick no-op then). Install progress
 * is always printed; `quiet` only drops the "ready" line of the quick path.
 */
export function ensureCodeServer(options?: { quiet?: boolean }): Promise<CodeServerTools>;

/** Path of the Chromium playwright-core drives; throws with the apt-get command when it is missing. */
export function chromiumPath(): string;
