// Types for codeServer.mjs, for the TypeScript tests that import it.

/** Settings that keep the workbench quiet and offline. */
export const QUIET_SETTINGS: Readonly<Record<string, unknown>>;

export interface CodeServerOptions {
  /** Folder the server opens by default. */
  workspace: string;
  /** Kept after stop; default: a fresh temporary folder. */
  extensionsDir?: string;
  /** Kept after stop; default: a fresh temporary folder. */
  userDataDir?: string;
  /** Merged over QUIET_SETTINGS into User/settings.json. */
  settings?: Record<string, unknown>;
  /** More code-server arguments. */
  extraArgs?: string[];
  /** Added to the server's environment; the extension host inherits it. */
  env?: NodeJS.ProcessEnv;
  /** Default: a free port on 127.0.0.1. */
  port?: number;
  /** Keep code-server's XDG folders out of $HOME (default true). */
  isolateXdg?: boolean;
  /** Workspace trust on (default off): a folder not trusted yet opens in Restricted Mode. */
  workspaceTrust?: boolean;
  /** Receives every line the server prints. */
  onOutput?: (line: string) => void;
}

export interface CodeServer {
  /** e.g. http://127.0.0.1:41234 */
  readonly url: string;
  readonly port: number;
  /** Process (and process group) id of the server. */
  readonly pid: number;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** Settles when the server process ends, with how (signal or exit code). */
  readonly exited: Promise<string>;
  /** Kills the server's process group and removes its temporary folders. */
  stop(): Promise<void>;
}

/** Starts code-server on 127.0.0.1 and resolves once `/healthz` answers. */
export function startCodeServer(options: CodeServerOptions): Promise<CodeServer>;
/** A port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number>;
/** Whether `port` can be bound on 127.0.0.1 right now. */
export function isPortFree(port: number): Promise<boolean>;
