import type { ChildProcess, SpawnOptions } from 'node:child_process';
import crossSpawn from 'cross-spawn';
import * as path from 'node:path';
import which from 'which';
import { nameKey } from '../platform/pathNames';

/** An environment as a child process gets it (the agent's own variables over the host's). */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Starts `command args` without a shell. On POSIX this is `child_process.spawn` as it is. On
 * Windows, `npx`, `claude-agent-acp` and most npm-installed agents are `.cmd` shims that Node
 * cannot execute directly (spawn ENOENT / EINVAL): cross-spawn runs a shim under
 * `cmd.exe /d /s /c` with every argument quoted and cmd's metacharacters escaped (twice for a
 * `node_modules\.bin` shim, which runs a second cmd.exe), and reports a command cmd.exe could not
 * find as an ENOENT `error`, as Node does. See `programToStart` for which program that is.
 */
export function spawnProgram(
  command: string,
  args: readonly string[],
  options: SpawnOptions & { readonly env: Environment },
): ChildProcess {
  return crossSpawn(programToStart(command, options.env), args, options);
}

/**
 * The program to hand to cross-spawn: on Windows the full path found on the env's PATH (with
 * PATHEXT). Given a bare name, cross-spawn would pass it on to cmd.exe, which looks in its working
 * folder — the agent's, the workspace — before PATH: an `npx.cmd` committed to a repository would
 * run instead of the real one. Elsewhere the command as it is (the OS searches PATH only).
 */
export function programToStart(command: string, env: Environment): string {
  return process.platform === 'win32' ? (findOnPath(command, env) ?? command) : command;
}

/**
 * The executable `command` runs as, looked up with `which` on the env's PATH (and PATHEXT on
 * Windows); undefined when absent. A command with a slash is checked as it is. On POSIX only
 * executable files count, as for a shell.
 */
export function findOnPath(command: string, env: Environment): string | undefined {
  const options = whichOptions(env);
  return searchesNowhere(command, options)
    ? undefined
    : (which.sync(command, { ...options, nothrow: true }) ?? undefined);
}

/** `findOnPath` without blocking the event loop on the file system (for the agent doctor). */
export async function findOnPathAsync(command: string, env: Environment): Promise<string | undefined> {
  const options = whichOptions(env);
  return searchesNowhere(command, options)
    ? undefined
    : ((await which(command, { ...options, nothrow: true })) ?? undefined);
}

/**
 * The executable `command` runs as, found only in PATH's absolute folders: never in the current
 * folder (which `which`, like Windows' process launcher, searches first on Windows) nor through a
 * relative entry such as `.`. For a program started with a workspace folder as its working folder
 * (git): a `git.exe` committed to the repository must not be the one that runs.
 */
export async function findOnAbsolutePath(command: string, env: Environment): Promise<string | undefined> {
  const options = whichOptions(env);
  const folders = options.path.split(path.delimiter).filter((entry) => path.isAbsolute(entry));
  if (folders.length === 0 || /[\\/]/.test(command)) {
    return undefined;
  }
  const found =
    (await which(command, { ...options, path: folders.join(path.delimiter), all: true, nothrow: true })) ??
    [];
  const allowed = new Set(folders.map((folder) => nameKey(path.resolve(folder))));
  return found.find((candidate) => allowed.has(nameKey(path.dirname(path.resolve(candidate)))));
}

/**
 * A bare name with an empty PATH is found nowhere; `which` would split '' into one empty entry and
 * look in the extension host's current directory instead.
 */
function searchesNowhere(command: string, options: WhichOptions): boolean {
  return options.path === '' && !/[\\/]/.test(command);
}

interface WhichOptions {
  readonly path: string;
  readonly pathExt: string | undefined;
}

function whichOptions(env: Environment): WhichOptions {
  const windows = process.platform === 'win32';
  return {
    // A missing PATH means nowhere, not the extension host's PATH (which's default).
    path: variable(env, 'PATH', windows) ?? '',
    pathExt: windows ? variable(env, 'PATHEXT', windows) : undefined,
  };
}

/** A variable of `env`; on Windows, where names are case-insensitive, in any spelling (`Path`). */
function variable(env: Environment, name: string, windows: boolean): string | undefined {
  if (!windows) {
    return env[name];
  }
  // The last spelling wins, as in Node's own environment block on Windows.
  const key = Object.keys(env)
    .reverse()
    .find((candidate) => candidate.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}
