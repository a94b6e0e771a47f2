// Types for installProgress.mjs, for the TypeScript tests that import it.

export interface InstallProgressLine {
  readonly label: string;
  readonly mb: number;
  readonly expectedMb: number;
  readonly building: readonly string[];
  readonly built: number;
  readonly expectedBuilds: number;
  readonly elapsedMs: number;
}

/** One progress line: MB on disk while it downloads, which native module of how many once it compiles. */
export function formatInstallProgress(line: InstallProgressLine): string;
/** `45 s`, `3 min 05 s`. */
export function formatDuration(ms: number): string;
/** The package a build runs for, from its working folder (`…/node_modules/@vscode/spdlog/build` → `@vscode/spdlog`). */
export function packageOfFolder(folder: string): string | undefined;
/** Prints a progress line with `say` every `everyMs` while an install into `dir` runs; `stop()` ends it. */
export function watchInstall(options: {
  dir: string;
  label: string;
  expectedMb: number;
  expectedBuilds?: number;
  say: (line: string) => void;
  everyMs?: number;
}): { stop(): void };
