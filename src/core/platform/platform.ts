import { spawn } from 'node:child_process';
import { realpath as realpathCallback } from 'node:fs';
import { lstat, readlink, rename, rm, stat } from 'node:fs/promises';
import * as nodePath from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

/**
 * The one place where what we do on the user's behalf differs by operating system: how paths are
 * spelled and compared, what the disk says about an entry, how a process tree is ended, how long to
 * wait for a file another program holds. Everything that differs takes a `Platform`, defaulting to
 * `hostPlatform()`; the unit suite hands in win32 and darwin ones (with a simulated disk where the
 * host's cannot behave like theirs) so their semantics run on Linux too.
 */
export interface Platform {
  /** Whose rules apply: any other POSIX system (FreeBSD…) follows Linux's. */
  readonly os: 'win32' | 'darwin' | 'linux';
  /** Node's path functions for that system: `path.win32` (`\` and `/`, drives, UNC) or `path.posix`. */
  readonly path: nodePath.PlatformPath;
  readonly disk: Disk;
  readonly processes: Processes;
  /** How a retry waits (the tests count the waits instead of sleeping). */
  readonly sleep: (ms: number) => Promise<void>;
}

/** What an entry is (`lstat`, or `stat` when followed); `dev` and `ino` say which file it is. */
export interface EntryStats {
  isSymbolicLink(): boolean;
  isDirectory(): boolean;
  isFile(): boolean;
  /** Exact (bigint): an NTFS file id does not fit a double. */
  readonly dev: bigint;
  readonly ino: bigint;
}

/** The file system calls whose answers differ by system (links, junctions, sharing rules). */
export interface Disk {
  /** Rejects with ENOENT (or ENOTDIR) when nothing is there. */
  lstat(file: string): Promise<EntryStats>;
  /** As `lstat`, but through every link (a final one too). */
  stat(file: string): Promise<EntryStats>;
  readlink(file: string): Promise<string>;
  /** The OS's own realpath: every link followed, names as the disk stores them (case, long names). */
  realpath(file: string): Promise<string>;
  rename(from: string, to: string): Promise<void>;
  rm(file: string, options: { readonly force: boolean; readonly recursive?: boolean }): Promise<void>;
}

/** Processes as the system knows them. */
export interface Processes {
  /** Sends `signal` to the process group `pid` leads (POSIX); nothing when the group is gone. */
  signalGroup(pid: number, signal: NodeJS.Signals): void;
  /** Runs `program args` to its end, output ignored, never failing (taskkill). */
  run(program: string, args: readonly string[]): Promise<void>;
  /** The host's environment (where Windows keeps `SystemRoot`). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

const realpathNative = promisify(realpathCallback.native);

const nodeDisk: Disk = {
  lstat: (file) => lstat(file, { bigint: true }),
  stat: (file) => stat(file, { bigint: true }),
  readlink: (file) => readlink(file),
  realpath: (file) => realpathNative(file),
  rename: (from, to) => rename(from, to),
  rm: (file, options) => rm(file, options),
};

const nodeProcesses: Processes = {
  signalGroup(pid, signal) {
    try {
      process.kill(-pid, signal);
    } catch {
      // ESRCH: nothing left in the group.
    }
  },
  run: (program, args) =>
    new Promise<void>((resolve) => {
      const child = spawn(program, [...args], { stdio: 'ignore', windowsHide: true });
      child.once('error', () => resolve());
      child.once('close', () => resolve());
    }),
  get env() {
    return process.env;
  },
};

/** The rules of `os` with this machine's disk and processes (override either to simulate). */
export function platformFor(
  os: Platform['os'],
  parts: Partial<Omit<Platform, 'os' | 'path'>> = {},
): Platform {
  return {
    os,
    path: os === 'win32' ? nodePath.win32 : nodePath.posix,
    disk: parts.disk ?? nodeDisk,
    processes: parts.processes ?? nodeProcesses,
    sleep: parts.sleep ?? ((ms) => sleep(ms)),
  };
}

const hosts = new Map<NodeJS.Platform, Platform>();

/** The platform this process runs on (read on each call: a test process may pose as another). */
export function hostPlatform(): Platform {
  const name = process.platform;
  let platform = hosts.get(name);
  if (platform === undefined) {
    platform = platformFor(name === 'win32' || name === 'darwin' ? name : 'linux');
    hosts.set(name, platform);
  }
  return platform;
}

/**
 * Spawn options that let `endProcessTree` reach a child's own children: on POSIX the child leads a
 * process group of its own; on Windows `taskkill /T` follows the parent links instead (and a
 * detached child there would get a console window of its own).
 */
export function ownProcessGroup(platform: Platform = hostPlatform()): { readonly detached: boolean } {
  return { detached: platform.os !== 'win32' };
}
