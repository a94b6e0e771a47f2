import { spawn, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';

/*
 * The one place where any git we start is made safe: the checkpoints' shadow repositories and the
 * worktrees of the user's own repository both run git through here. A repository's configuration and
 * attributes are files an agent can write; whatever they say, our git starts no program of theirs.
 */

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

/** Splits NUL-terminated output (`-z`) into its fields. */
export function splitNul(output: Buffer | string): string[] {
  const text = typeof output === 'string' ? output : output.toString('utf8');
  const fields = text.split('\0');
  if (fields.at(-1) === '') {
    fields.pop();
  }
  return fields;
}

/**
 * Settings that keep git from starting a program a repository names: its hooks (`hooksDir` is an empty
 * folder of ours), the file-system monitor, an external diff, transports (so no `core.sshCommand`, no
 * credential helper), signing. Given on every command line, they win over every configuration file.
 * Filter, diff and merge drivers are named per repository: see `neutralDriverSettings`.
 */
export function noProgramSettings(hooksDir: string): Record<string, string> {
  return {
    'core.hooksPath': hooksDir,
    'core.fsmonitor': 'false',
    'core.sshCommand': '',
    'diff.external': '',
    'protocol.allow': 'never',
    'credential.helper': '',
    'commit.gpgSign': 'false',
    'tag.gpgSign': 'false',
    'submodule.recurse': 'false',
  };
}

/** The driver commands git could read from a configuration: `filter.<name>.clean` and the like. */
const DRIVER_KEY = /^(filter|diff|merge)\.(.+)\.(clean|smudge|process|command|textconv|driver)$/i;

/**
 * Empty commands for every filter, diff and merge driver named in a repository's configuration (the
 * names `git config --name-only -z --get-regexp` printed): git runs no driver with an empty command, and a
 * `required` filter is not required then. Attributes name drivers, the configuration defines them, so
 * a driver with no command defined runs nothing.
 */
export function neutralDriverSettings(configNames: readonly string[]): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const name of configNames) {
    const match = DRIVER_KEY.exec(name);
    if (!match) {
      continue;
    }
    const [, kind, driver] = match as unknown as [string, string, string];
    if (kind.toLowerCase() === 'filter') {
      for (const key of ['clean', 'smudge', 'process']) {
        settings[`filter.${driver}.${key}`] = '';
      }
      settings[`filter.${driver}.required`] = 'false';
    } else if (kind.toLowerCase() === 'diff') {
      settings[`diff.${driver}.command`] = '';
      settings[`diff.${driver}.textconv`] = '';
    } else {
      settings[`merge.${driver}.driver`] = '';
    }
  }
  return settings;
}

/** `-c key=value` arguments for `settings` (keys that hold no `=`; see `settingsEnvironment` for others). */
export function settingArgs(settings: Record<string, string>): string[] {
  return Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`]);
}

/** The same settings as environment variables (`GIT_CONFIG_COUNT`): any key, whatever characters it holds. */
export function settingsEnvironment(settings: Record<string, string>): NodeJS.ProcessEnv {
  const entries = Object.entries(settings);
  const env: NodeJS.ProcessEnv = { GIT_CONFIG_COUNT: String(entries.length) };
  entries.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

/**
 * The environment every git of ours starts from: nothing of an inherited GIT_* variable (a hook's
 * environment would point us at another repository or index), no prompts, no editor, messages in
 * English. The caller adds where the repository is.
 */
export function safeGitEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^GIT_/i.test(key)) {
      env[key] = value;
    }
  }
  return {
    ...env,
    GIT_TERMINAL_PROMPT: '0',
    // ":" is git's own "no editor": nothing is started, nothing waits for one.
    GIT_EDITOR: ':',
    LC_ALL: 'C',
    // Windows: programs git starts are looked up on PATH only, never in the working folder (the workspace).
    ...(process.platform === 'win32' ? { NoDefaultCurrentDirectoryInExePath: '1' } : {}),
  };
}

export interface GitProcessOptions {
  /** The working folder git starts in. */
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** How long the command may run. */
  readonly timeoutMs: number;
  /** Written to the command's stdin, then closed. */
  readonly input?: string | Buffer;
  /** Exit codes that are answers, not failures (e.g. 1 from `cat-file -e`). */
  readonly okExitCodes?: readonly number[];
  /** Lowest priority, own process group (what git starts goes with it when stopped). */
  readonly background?: boolean;
  /** Stops the command (SIGTERM): it then fails. */
  readonly signal?: AbortSignal;
  /** Stdout beyond this fails the command (default 256 MiB). */
  readonly maxStdoutBytes?: number;
}

export interface GitResult {
  readonly stdout: Buffer;
  readonly exitCode: number;
  /** The end of what it wrote to stderr (warnings of a command that succeeded). */
  readonly stderr: string;
}

const MAX_STDOUT_BYTES = 256 * 1024 * 1024;
const MAX_STDERR_CHARS = 4096;

/** Runs `git` once, without a shell: its stdout as bytes, bounded in time and size. */
export function runGitProcess(
  git: string,
  args: readonly string[],
  shownArgs: readonly string[],
  options: GitProcessOptions,
): Promise<GitResult> {
  const maxStdout = options.maxStdoutBytes ?? MAX_STDOUT_BYTES;
  return new Promise((resolve, reject) => {
    const background = options.background === true;
    const child = spawn(git, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
      detached: background && process.platform !== 'win32',
    });
    if (background) {
      lowerPriority(child);
    }
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stop(child, background, 'SIGKILL');
    }, options.timeoutMs);
    // SIGTERM, not SIGKILL: git removes its locks and temporary files on the way out.
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
      if (stdoutBytes > maxStdout) {
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
      if (stdoutBytes > maxStdout) {
        reject(new GitCommandError(shownArgs, code, `output above ${maxStdout} bytes`));
      } else if (timedOut) {
        reject(new GitCommandError(shownArgs, code, stderr, signal, true));
      } else if (code === 0 || (code !== null && options.okExitCodes?.includes(code))) {
        resolve({ stdout: Buffer.concat(chunks), exitCode: code, stderr });
      } else {
        reject(new GitCommandError(shownArgs, code, stderr, signal));
      }
    });
    // A command that exits before reading its input must not crash us with EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** At the lowest priority, so background work yields the cores to the user (git's children inherit it). */
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
