import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { setPriority } from 'node:os';

/** A git command that failed: its exit code and the end of what it wrote to stderr. */
export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
    /** The signal that ended it (`null` when it exited, or for the timeout: see `timedOut`). */
    readonly signal: NodeJS.Signals | null = null,
    readonly timedOut = false,
  ) {
    super(
      `git ${args.slice(0, 2).join(' ')} ${timedOut ? 'took too long' : 'failed'} (${exitCode ?? signal ?? 'killed'}): ${stderr.trim().slice(-500)}`,
    );
    this.name = 'GitCommandError';
  }
}

/** A git ended by a signal (SIGBUS on a file truncated under it, a SIGKILL), not by its timeout. */
export function killedBySignal(error: unknown): error is GitCommandError {
  return error instanceof GitCommandError && error.signal !== null && !error.timedOut;
}

/** Where one shadow repository lives and what it snapshots. */
export interface ShadowLocation {
  /** The git executable. */
  readonly git: string;
  /** The shadow repository (GIT_DIR), in the extension's storage. */
  readonly gitDir: string;
  /** The workspace folder, used as the work tree. */
  readonly workTree: string;
  /** This store object's own index file (see ./ownIndex): never shared with another window. */
  indexFile: string;
  /** How long one git command may run (default 120 s); tests give a short one. */
  readonly timeoutMs?: number;
  /** An empty directory given as `core.hooksPath`, so no hook can ever run. */
  readonly hooksDir: string;
  /** A directory with no git configuration, given as HOME: the user's global config is never read. */
  readonly homeDir: string;
}

export interface GitRunOptions {
  /** Written to the command's stdin, then closed. */
  readonly input?: string | Buffer;
  /** Exit codes that are answers, not failures (e.g. 1 from `cat-file -e`). */
  readonly okExitCodes?: readonly number[];
  /**
   * Run without the work tree (as in a bare repository): git then reads no `.gitattributes` or
   * `.gitignore` of the folder — for commands that only read the repository (`diff-tree`).
   */
  readonly bare?: boolean;
  /**
   * Background work (packing): run at the lowest priority, in its own process group (so the commands
   * git starts go with it when it is stopped), never run again when killed.
   */
  readonly background?: boolean;
  /** Stops the command (and, for background work, what it started): it then fails. */
  readonly signal?: AbortSignal;
  /** How long this command may run, instead of the location's. */
  readonly timeoutMs?: number;
  /** The author and commit time of a commit it makes, in unix seconds (UTC). */
  readonly commitSeconds?: number;
}

export interface GitResult {
  readonly stdout: Buffer;
  readonly exitCode: number;
  /** The end of what it wrote to stderr (warnings of a command that succeeded). */
  readonly stderr: string;
}

/** Fixed, so checkpoints never carry the user's identity and never ask for one. */
const AUTHOR = { name: 'ACP Agents checkpoint', email: 'checkpoints@acp-agents.invalid' };
/** A stuck git (a network file system, a lock) must not hold a turn forever. */
const TIMEOUT_MS = 120_000;
const MAX_STDOUT_BYTES = 256 * 1024 * 1024;
const MAX_STDERR_CHARS = 4096;

/**
 * Settings given on every command line, so they hold whatever any config file says. Hooks and the
 * file-system monitor would run programs; autocrlf and filters would change bytes (attributes are
 * neutralised in the shadow's info/attributes); the caches keep a no-change checkpoint fast.
 */
function configArgs(location: ShadowLocation): string[] {
  const settings: Record<string, string> = {
    'core.hooksPath': location.hooksDir,
    'core.fsmonitor': 'false',
    'core.autocrlf': 'false',
    'core.safecrlf': 'false',
    'core.quotepath': 'off',
    'core.untrackedCache': 'true',
    'core.longpaths': 'true',
    'core.preloadIndex': 'true',
    'feature.manyFiles': 'true',
    'index.threads': 'true',
    'commit.gpgSign': 'false',
    'advice.addEmbeddedRepo': 'false',
    'gc.autoDetach': 'false',
    'maintenance.auto': 'false',
    // No reflogs: a pruned checkpoint's objects must become collectable.
    'core.logAllRefUpdates': 'false',
  };
  return Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`]);
}

/**
 * The environment of every command: nothing from an inherited GIT_* variable (a hook environment
 * would point us at the user's repository or index), explicit GIT_DIR / GIT_WORK_TREE / GIT_INDEX_FILE,
 * no system or global configuration, no optional locks, no prompts.
 */
function gitEnvironment(location: ShadowLocation, bare: boolean, commitSeconds?: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^GIT_/i.test(key)) {
      env[key] = value;
    }
  }
  return {
    ...env,
    GIT_DIR: location.gitDir,
    ...(bare ? {} : { GIT_WORK_TREE: location.workTree }),
    GIT_INDEX_FILE: location.indexFile,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: `${location.homeDir}/gitconfig`,
    HOME: location.homeDir,
    XDG_CONFIG_HOME: location.homeDir,
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: AUTHOR.name,
    GIT_AUTHOR_EMAIL: AUTHOR.email,
    GIT_COMMITTER_NAME: AUTHOR.name,
    GIT_COMMITTER_EMAIL: AUTHOR.email,
    ...(commitSeconds === undefined
      ? {}
      : { GIT_AUTHOR_DATE: `${commitSeconds} +0000`, GIT_COMMITTER_DATE: `${commitSeconds} +0000` }),
    LC_ALL: 'C',
    // Windows: programs git starts are looked up on PATH only, never in the working folder (the workspace).
    ...(process.platform === 'win32' ? { NoDefaultCurrentDirectoryInExePath: '1' } : {}),
  };
}

/**
 * Runs one git command against a shadow repository, without a shell, and returns its stdout as bytes.
 * A git killed by a signal (SIGBUS when a file it maps is truncated under it; a SIGKILL from outside)
 * is run once more — after removing the index lock it could not clean up — since every command we run
 * can be repeated. A git that outlives the timeout is not: it would most likely hang again.
 */
export async function runGit(
  location: ShadowLocation,
  args: readonly string[],
  options: GitRunOptions = {},
): Promise<GitResult> {
  try {
    return await runGitOnce(location, args, options);
  } catch (error) {
    if (!killedBySignal(error) || options.background === true || options.signal?.aborted === true) {
      throw error;
    }
    await rm(`${location.indexFile}.lock`, { force: true });
    return runGitOnce(location, args, options);
  }
}

function runGitOnce(
  location: ShadowLocation,
  args: readonly string[],
  options: GitRunOptions,
): Promise<GitResult> {
  const bare = options.bare === true;
  const fullArgs = [
    '--no-optional-locks',
    ...configArgs(location),
    ...(bare ? ['-c', 'core.bare=true'] : []),
    ...args,
  ];
  return new Promise((resolve, reject) => {
    const background = options.background === true;
    const child = spawn(location.git, fullArgs, {
      // Bare: not even the working folder is the workspace.
      cwd: bare ? location.gitDir : location.workTree,
      env: gitEnvironment(location, bare, options.commitSeconds),
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
      detached: background && process.platform !== 'win32',
    });
    if (background) {
      lowerPriority(child);
    }
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        stop(child, background, 'SIGKILL');
      },
      options.timeoutMs ?? location.timeoutMs ?? TIMEOUT_MS,
    );
    // SIGTERM, not SIGKILL: git removes its lock (gc.pid) and temporary packs on the way out.
    const abort = (): void => stop(child, background, 'SIGTERM');
    options.signal?.addEventListener('abort', abort, { once: true });
    if (options.signal?.aborted === true) {
      abort();
    }
    const chunks: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > MAX_STDOUT_BYTES) {
        child.kill();
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-MAX_STDERR_CHARS);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
      if (stdoutBytes > MAX_STDOUT_BYTES) {
        reject(new GitCommandError(args, code, `output above ${MAX_STDOUT_BYTES} bytes`));
      } else if (timedOut) {
        reject(new GitCommandError(args, code, stderr, signal, true));
      } else if (code === 0 || (code !== null && options.okExitCodes?.includes(code))) {
        resolve({ stdout: Buffer.concat(chunks), exitCode: code, stderr });
      } else {
        reject(new GitCommandError(args, code, stderr, signal));
      }
    });
    // A command that exits before reading its input must not crash us with EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** At the lowest priority, so packing yields the cores to the user (the commands git starts inherit it). */
function lowerPriority(child: ChildProcess): void {
  if (child.pid === undefined) {
    return;
  }
  try {
    setPriority(child.pid, 19);
  } catch {
    // not allowed here: it still runs, at normal priority
  }
}

/** Stops `child`; background work as a whole process group (POSIX), so git's own children stop too. */
function stop(child: ChildProcess, group: boolean, signal: NodeJS.Signals): void {
  if (group && child.pid !== undefined && process.platform !== 'win32') {
    try {
      process.kill(-child.pid, signal);
      return;
    } catch {
      // the group is gone already, or was never made: the process itself
    }
  }
  child.kill(signal);
}

/** Splits NUL-terminated output (`-z`) into its fields. */
export function splitNul(output: Buffer | string): string[] {
  const text = typeof output === 'string' ? output : output.toString('utf8');
  const fields = text.split('\0');
  if (fields.at(-1) === '') {
    fields.pop();
  }
  return fields;
}
