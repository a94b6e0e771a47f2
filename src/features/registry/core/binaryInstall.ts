import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { isInside } from '../../../core/files/pathConfinement';
import type { BinaryTargetSpec } from './registryFormat';

/** What an install step reports: a message and, while downloading, the share done (0–1). */
export type InstallProgress = (message: string, fraction?: number) => void;

/** A download larger than this is refused (today's biggest agent archive is ~150 MiB). */
const MAX_ARCHIVE_BYTES = 1024 * 1024 * 1024;

export class ArchiveHashMismatchError extends Error {
  constructor(
    readonly expected: string,
    readonly actual: string,
  ) {
    super(
      `The download does not match the registry's checksum (expected sha256 ${expected}, got ${actual}).`,
    );
    this.name = 'ArchiveHashMismatchError';
  }
}

/**
 * Downloads a binary agent's archive into `folder` (created fresh: `<storage>/agents/<id>/<version>`),
 * checks its SHA-256 when the registry gives one, unpacks it, and returns the executable, made
 * executable. Everything happens in a temporary sibling folder renamed into place at the end, so a
 * cancelled or failed install leaves nothing half-unpacked; an executable that resolves outside the
 * folder (a link in the archive) is refused.
 */
export async function installBinary(
  target: BinaryTargetSpec,
  folder: string,
  progress: InstallProgress,
  signal?: AbortSignal,
): Promise<string> {
  const parent = path.dirname(folder);
  await mkdir(parent, { recursive: true });
  const staging = path.join(parent, `.staging-${randomBytes(6).toString('hex')}`);
  await mkdir(staging);
  try {
    const fileName = archiveName(target.archive);
    const archive = path.join(staging, `.download-${fileName}`);
    const digest = await download(target.archive, archive, progress, signal);
    if (target.sha256 && digest !== target.sha256.toLowerCase()) {
      throw new ArchiveHashMismatchError(target.sha256.toLowerCase(), digest);
    }
    progress('Unpacking…');
    const unpacked = path.join(staging, 'files');
    await mkdir(unpacked);
    await unpack(archive, fileName, unpacked, target.cmd, signal);
    await rm(archive, { force: true });
    const executable = path.resolve(unpacked, target.cmd);
    if (!(await isInside(executable, [unpacked])) || !(await stat(executable)).isFile()) {
      throw new Error(`The archive has no program at ${target.cmd}.`);
    }
    if (process.platform !== 'win32') {
      await chmod(executable, 0o755);
    }
    await rm(folder, { recursive: true, force: true });
    await rename(unpacked, folder);
    return path.resolve(folder, target.cmd);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

function archiveName(url: string): string {
  const name = path.posix.basename(new URL(url).pathname);
  return /^[\w.+-]+$/.test(name) ? name : 'archive';
}

async function download(
  url: string,
  file: string,
  progress: InstallProgress,
  signal?: AbortSignal,
): Promise<string> {
  const response = await fetch(url, signal ? { signal } : {});
  if (!response.ok || !response.body) {
    throw new Error(`Downloading ${url} failed: ${response.status} ${response.statusText}`);
  }
  const total = Number(response.headers.get('content-length')) || undefined;
  if (total !== undefined && total > MAX_ARCHIVE_BYTES) {
    throw new Error(`${url} is larger than ${MAX_ARCHIVE_BYTES} bytes.`);
  }
  const hash = createHash('sha256');
  const out = createWriteStream(file);
  let received = 0;
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      received += chunk.byteLength;
      if (received > MAX_ARCHIVE_BYTES) {
        throw new Error(`${url} is larger than ${MAX_ARCHIVE_BYTES} bytes.`);
      }
      hash.update(chunk);
      if (!out.write(chunk)) {
        await new Promise<void>((resolve) => out.once('drain', resolve));
      }
      progress(
        `Downloading… ${megabytes(received)}${total ? ` of ${megabytes(total)}` : ''}`,
        total ? received / total : undefined,
      );
    }
  } finally {
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
  return hash.digest('hex');
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Unpacks with the system's own tools, which refuse entries that climb out of the folder: `tar`
 * (GNU tar on Linux, bsdtar on macOS and Windows 10+, which also reads zip) and `unzip` on Linux.
 * A raw binary (no archive suffix) is copied as the program.
 */
async function unpack(
  archive: string,
  name: string,
  into: string,
  cmd: string,
  signal?: AbortSignal,
): Promise<void> {
  const lower = name.toLowerCase();
  if (/\.(tar\.gz|tgz|tar\.bz2|tbz2|tar\.xz|tar)$/.test(lower)) {
    await run('tar', ['-xf', archive, '-C', into], signal);
  } else if (lower.endsWith('.zip')) {
    await (process.platform === 'linux'
      ? run('unzip', ['-q', '-o', archive, '-d', into], signal)
      : run('tar', ['-xf', archive, '-C', into], signal));
  } else {
    const program = path.resolve(into, cmd);
    if (!program.startsWith(into + path.sep)) {
      throw new Error(`The registry's program path ${cmd} leaves the install folder.`);
    }
    await mkdir(path.dirname(program), { recursive: true });
    await copyFile(archive, program);
  }
}

function run(command: string, args: readonly string[], signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      ...(signal ? { signal } : {}),
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error(`Unpacking needs \`${command}\`, which was not found on PATH.`)
          : error,
      ),
    );
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} could not unpack the archive: ${stderr.trim() || `exit ${code}`}`)),
    );
  });
}
