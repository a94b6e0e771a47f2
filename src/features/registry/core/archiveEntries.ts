import * as path from 'node:path';

/**
 * What an agent's archive may hold. Today's biggest agent unpacks to a few hundred MB in a few hundred
 * files; a bomb (1.2 MB of `.tar.gz` that unpacks to 1.2 GB) stops at the first entry that would pass a
 * bound, before it is written.
 */
export const ARCHIVE_LIMITS = {
  /** The bytes of all files, as their entries declare them (a zip's are checked as they stream). */
  maxUnpackedBytes: 1024 * 1024 * 1024,
  maxEntries: 20_000,
  /** Of an entry's path, and of a link's target. */
  maxPathChars: 1_024,
  /** Folders deep. */
  maxDepth: 64,
} as const;

export type ArchiveLimits = { readonly [K in keyof typeof ARCHIVE_LIMITS]: number };

/** An archive that is refused, saying which entry and why; nothing of it is kept. */
export class ArchiveRefusedError extends Error {
  constructor(why: string) {
    super(`The archive was refused: ${why}.`);
    this.name = 'ArchiveRefusedError';
  }
}

/** An entry as the checks see it, whatever the archive format. */
export interface ArchiveEntry {
  /** As written in the archive, `/`-separated. */
  readonly name: string;
  readonly kind: 'file' | 'directory' | 'symlink' | 'hardlink' | 'other';
  /** The declared size of a file's content. */
  readonly size: number;
  /** A link's target as written. */
  readonly target?: string;
}

/**
 * The running totals of one archive and the checks on each entry: its path stays inside the folder
 * (relative, no `..`, no drive, not too long or deep), it is a file, a folder or a link whose target
 * stays inside (hard links name another entry) — never a device or a FIFO — and the entries so far,
 * with this one, stay within the limits. Each check throws `ArchiveRefusedError`.
 */
export class ArchiveTotals {
  private entries = 0;
  private bytes = 0;

  constructor(private readonly limits: ArchiveLimits = ARCHIVE_LIMITS) {}

  /** The bytes of file content accepted so far. */
  get unpackedBytes(): number {
    return this.bytes;
  }

  /** The entries accepted so far. */
  get entryCount(): number {
    return this.entries;
  }

  /** Checks `entry` and counts it; throws when it may not be unpacked. */
  admit(entry: ArchiveEntry): void {
    const name = this.checkedName(entry.name, 'entry');
    if (++this.entries > this.limits.maxEntries) {
      throw new ArchiveRefusedError(`it has more than ${this.limits.maxEntries} entries`);
    }
    switch (entry.kind) {
      case 'file':
        if (entry.size > this.limits.maxUnpackedBytes - this.bytes) {
          throw new ArchiveRefusedError(
            `${quote(name)} would take it past ${this.limits.maxUnpackedBytes} bytes unpacked`,
          );
        }
        this.bytes += entry.size;
        return;
      case 'directory':
        return;
      case 'symlink':
        // A zip keeps a link's target as its content: checked with `checkLinkTarget` once read.
        if (entry.target !== undefined) {
          checkLinkTarget(name, entry.target, this.limits);
        }
        return;
      case 'hardlink':
        this.checkedName(entry.target ?? '', `the target of ${quote(name)}`);
        return;
      default:
        throw new ArchiveRefusedError(`${quote(name)} is not a file, a folder or a link`);
    }
  }

  /** `name` normalised, when it names a place inside the folder. */
  private checkedName(name: string, what: string): string {
    if (name.length > this.limits.maxPathChars) {
      throw new ArchiveRefusedError(`${what} has a path longer than ${this.limits.maxPathChars} characters`);
    }
    if (name.includes('\0') || /^[\\/]|^[a-zA-Z]:/.test(name)) {
      throw new ArchiveRefusedError(`${what} ${quote(name)} is an absolute path`);
    }
    const parts = name.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
    if (parts.includes('..')) {
      throw new ArchiveRefusedError(`${what} ${quote(name)} climbs out of the folder`);
    }
    if (parts.length > this.limits.maxDepth) {
      throw new ArchiveRefusedError(
        `${what} ${quote(name)} is more than ${this.limits.maxDepth} folders deep`,
      );
    }
    return parts.join('/');
  }
}

/** A symbolic link's target, read from the link's folder, stays inside (by its names: nothing is on disk yet). */
export function checkLinkTarget(name: string, target: string, limits: ArchiveLimits = ARCHIVE_LIMITS): void {
  if (target === '' || target.length > limits.maxPathChars || target.includes('\0')) {
    throw new ArchiveRefusedError(`the link ${quote(name)} has no usable target`);
  }
  const outside = (): ArchiveRefusedError =>
    new ArchiveRefusedError(`the link ${quote(name)} points outside the folder (${quote(target)})`);
  if (path.posix.isAbsolute(target) || path.win32.isAbsolute(target)) {
    throw outside();
  }
  const resolved = path.posix.normalize(
    path.posix.join(path.posix.dirname(name), target.replace(/\\/g, '/')),
  );
  if (resolved === '..' || resolved.startsWith('../')) {
    throw outside();
  }
}

function quote(name: string): string {
  return JSON.stringify(name.length > 120 ? `${name.slice(0, 120)}…` : name);
}
