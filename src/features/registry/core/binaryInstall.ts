import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, rm, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { isInside } from '../../../core/files/pathConfinement';
import type { ArchiveLimits } from './archiveEntries';
import { archiveKind, unpackArchive } from './archiveUnpack';
import { downloadTo, fetchChecked, type TransportPolicy } from './download';
import type { BinaryTargetSpec } from './registryFormat';

/** What an install step reports: a message and, while downloading, the share done (0–1). */
export type InstallProgress = (message: string, fraction?: number) => void;

/** A download larger than this is refused (today's biggest agent archive is ~150 MiB). */
export const MAX_ARCHIVE_BYTES = 1024 * 1024 * 1024;

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

export interface BinaryInstallOptions extends TransportPolicy {
  readonly signal?: AbortSignal;
  /** The archive's bounds (tests; `ARCHIVE_LIMITS` otherwise). */
  readonly limits?: ArchiveLimits;
}

/** The installed program, and whether its archive was checked against a checksum from the registry. */
export interface InstalledBinary {
  readonly program: string;
  readonly checksum: 'verified' | 'none';
}

/**
 * Downloads a binary agent's archive into `folder` (created fresh: `<storage>/agents/<id>/<version>`) over
 * https (or http from a host the user allowed), checks its SHA-256 when the registry gives one — and says
 * when it does not —, unpacks it in this process within `ARCHIVE_LIMITS`, and returns the executable,
 * made executable. Everything happens in a temporary sibling folder renamed into place at the end, so a
 * cancelled, refused or failed install leaves nothing; an executable that resolves outside the folder
 * (a link in the archive) is refused.
 */
export async function installBinary(
  target: BinaryTargetSpec,
  folder: string,
  progress: InstallProgress,
  options: BinaryInstallOptions = {},
): Promise<InstalledBinary> {
  const parent = path.dirname(folder);
  await mkdir(parent, { recursive: true });
  const staging = path.join(parent, `.staging-${randomBytes(6).toString('hex')}`);
  await mkdir(staging);
  try {
    const fileName = archiveName(target.archive);
    const kind = archiveKind(fileName);
    const archive = path.join(staging, `.download-${fileName}`);
    const checksum = target.sha256 ? 'verified' : 'none';
    const digest = await download(target, archive, progress, options);
    if (target.sha256 && digest !== target.sha256.toLowerCase()) {
      throw new ArchiveHashMismatchError(target.sha256.toLowerCase(), digest);
    }
    progress('Unpacking…');
    const unpacked = path.join(staging, 'files');
    await mkdir(unpacked);
    await unpackArchive(archive, kind, unpacked, {
      cmd: target.cmd,
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      progress: (bytes) => progress(`Unpacking… ${megabytes(bytes)}`),
    });
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
    return { program: path.resolve(folder, target.cmd), checksum };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

function archiveName(url: string): string {
  const name = path.posix.basename(new URL(url).pathname);
  return /^[\w.+-]+$/.test(name) ? name : 'archive';
}

async function download(
  target: BinaryTargetSpec,
  file: string,
  progress: InstallProgress,
  options: BinaryInstallOptions,
): Promise<string> {
  const response = await fetchChecked(target.archive, options, options.signal);
  // Without a checksum https is all that vouches for the bytes: the user is told while they arrive.
  const unchecked = target.sha256 ? '' : ' (the registry gives no checksum to check it against)';
  return downloadTo(response, file, MAX_ARCHIVE_BYTES, (received, total) =>
    progress(
      `Downloading… ${megabytes(received)}${total ? ` of ${megabytes(total)}` : ''}${unchecked}`,
      total ? received / total : undefined,
    ),
  );
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
