import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { Logger } from '../ports';
import { CheckpointNotFoundError } from './errors';
import { countLineChanges, looksBinary } from './fileContent';
import type { CheckpointStore, FileChangeKind, FileChangeStat } from './types';

export interface LimitedStoreOptions {
  /** The workspace folders (absolute); files outside them are not recorded. */
  readonly folders: readonly string[];
  /** Why the full store is not available, for a one-time notice. */
  readonly limitation: string;
  readonly logger: Logger;
  /** Files above this are not recorded (default 5 MiB). */
  readonly maxFileBytes?: number;
  /** Checkpoints kept (default 100); older ids answer `CheckpointNotFoundError`. */
  readonly keepCheckpoints?: number;
}

/** A file's bytes at a checkpoint; `null`: it did not exist. */
type Recorded = Uint8Array | null;

const ID_PREFIX = 'mem1:';

/**
 * The store used when git is not usable: it knows only the files it is told about with `note` (the
 * client's own writes, files named in tool calls), recording each one's bytes the first time it is
 * noted after a checkpoint. Changes an agent makes to other files are not seen. Checkpoints live in
 * memory: after a reload their ids answer `CheckpointNotFoundError`. Line counts come from
 * `countLineChanges`, not from git.
 */
export class LimitedCheckpointStore implements CheckpointStore {
  readonly coverage = 'limited' as const;
  readonly limitation: string;
  private readonly checkpoints = new Map<string, Map<string, Recorded>>();
  private readonly folders: readonly string[];
  private readonly maxFileBytes: number;
  private readonly keepCheckpoints: number;
  private disposed = false;

  constructor(private readonly options: LimitedStoreOptions) {
    this.limitation = options.limitation;
    this.folders = options.folders.map((folder) => path.resolve(folder));
    this.maxFileBytes = options.maxFileBytes ?? 5 * 1024 * 1024;
    this.keepCheckpoints = options.keepCheckpoints ?? 100;
  }

  async create(): Promise<string> {
    this.assertOpen();
    const id = `${ID_PREFIX}${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
    this.checkpoints.set(id, new Map());
    for (const old of [...this.checkpoints.keys()].slice(0, -this.keepCheckpoints)) {
      this.checkpoints.delete(old);
    }
    return id;
  }

  /**
   * Records `file`'s bytes for every checkpoint that does not know it yet. `before` undefined: read now
   * from disk; `null`: it does not exist.
   */
  async note(file: string, before?: Uint8Array | null): Promise<void> {
    this.assertOpen();
    const absolute = path.resolve(file);
    if (this.folderOf(absolute) === undefined) {
      return;
    }
    const waiting = [...this.checkpoints.values()].filter((recorded) => !recorded.has(absolute));
    if (waiting.length === 0) {
      return;
    }
    const bytes = before === undefined ? await this.readDisk(absolute) : before;
    if (bytes !== null && bytes.byteLength > this.maxFileBytes) {
      this.options.logger.info(`Not recording ${absolute} for checkpoints: ${bytes.byteLength} bytes.`);
      return;
    }
    // One copy shared by every checkpoint: the caller may reuse its buffer.
    const copy = bytes === null ? null : Uint8Array.from(bytes);
    for (const recorded of waiting) {
      recorded.set(absolute, copy);
    }
  }

  /**
   * The noted files that differ between `from` and `to`. A file `to` has no record of is compared as it
   * is on disk now: this store does not know what it was at `to`.
   */
  async changes(from: string, to?: string): Promise<FileChangeStat[]> {
    this.assertOpen();
    const before = this.checkpoint(from);
    const after = to === undefined ? undefined : this.checkpoint(to);
    const stats: FileChangeStat[] = [];
    for (const [file, old] of before) {
      const recordedAfter = after?.get(file);
      const now = recordedAfter === undefined ? await this.readDisk(file) : recordedAfter;
      const stat = compare(file, this.folderOf(file)!, old, now);
      if (stat !== undefined) {
        stats.push(stat);
      }
    }
    return stats.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async read(id: string, file: string): Promise<Uint8Array | undefined> {
    this.assertOpen();
    return this.checkpoint(id).get(path.resolve(file)) ?? undefined;
  }

  dispose(): void {
    this.disposed = true;
    this.checkpoints.clear();
  }

  private checkpoint(id: string): Map<string, Recorded> {
    const recorded = this.checkpoints.get(id);
    if (recorded === undefined) {
      throw new CheckpointNotFoundError(id);
    }
    return recorded;
  }

  private folderOf(file: string): string | undefined {
    return this.folders
      .filter((folder) => {
        const rel = path.relative(folder, file);
        return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
      })
      .sort((a, b) => b.length - a.length)[0];
  }

  /** The file's bytes now; `null` when it does not exist (or is not a file). */
  private async readDisk(file: string): Promise<Recorded> {
    try {
      const info = await stat(file);
      if (!info.isFile()) {
        return null;
      }
      return await readFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return null;
      }
      throw error;
    }
  }

  private assertOpen(): void {
    if (this.disposed) {
      throw new Error('The checkpoint store is closed.');
    }
  }
}

function compare(
  file: string,
  folder: string,
  before: Recorded,
  after: Recorded,
): FileChangeStat | undefined {
  let kind: FileChangeKind;
  if (before === null && after === null) {
    return undefined;
  } else if (before === null) {
    kind = 'created';
  } else if (after === null) {
    kind = 'deleted';
  } else if (Buffer.from(before).equals(after)) {
    return undefined;
  } else {
    kind = 'modified';
  }
  const binary = (before !== null && looksBinary(before)) || (after !== null && looksBinary(after));
  const counts = binary
    ? { added: 0, removed: 0 }
    : countLineChanges(before ?? undefined, after ?? undefined);
  return { path: file, folder, kind, binary, ...counts };
}
