import { randomBytes } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import * as path from 'node:path';
import type { Logger } from '../../../core/ports';
import { CheckpointNotFoundError } from './errors';
import { looksBinary } from '../../../core/files/binaryContent';
import { countLineChanges, NotARegularFileError, readRegularFile } from './fileContent';
import { LimitedLog, UNKNOWN, type BlobRef, type LimitedCheckpoint } from './limitedLog';
import { lastChange, passFileClock, unchangedSince } from './fileClock';
import { SerialQueue } from '../../../core/util/serialQueue';
import type { CheckpointStore, FileChangeKind, FileChangeStat } from './types';

export interface LimitedStoreOptions {
  /** The workspace folders (absolute); files outside them are not recorded. */
  readonly folders: readonly string[];
  /** Where the store keeps what it recorded (`<storageDir>/checkpoints/limited/`). */
  readonly storageDir: string;
  /** Why the full store is not available, for a one-time notice. */
  readonly limitation: string;
  readonly logger: Logger;
  /** Files above this are not recorded (default 5 MiB). */
  readonly maxFileBytes?: number;
  /** Checkpoints kept (default 200); older ids answer `CheckpointNotFoundError`. */
  readonly keepCheckpoints?: number;
}

const ID_PREFIX = 'note1:';

/**
 * The store used when git is not usable: it knows only the files it is told about with `note` (the
 * client's own writes, files named in tool calls), recording each one's bytes the first time it is
 * noted after a checkpoint. Changes an agent makes to other files are not seen. What it recorded is
 * kept on disk (`LimitedLog`), so ids survive a reload. Line counts come from `countLineChanges`.
 */
export class LimitedCheckpointStore implements CheckpointStore {
  readonly coverage = 'limited' as const;
  readonly limitation: string;
  private readonly queue = new SerialQueue();
  readonly folders: readonly string[];
  private readonly maxFileBytes: number;
  private readonly keepCheckpoints: number;
  private dropped = 0;
  private disposed = false;

  private constructor(
    private readonly options: LimitedStoreOptions,
    private readonly log: LimitedLog,
    /** Oldest first. */
    private readonly checkpoints: Map<string, LimitedCheckpoint>,
    /** The store's own folder (the file-system clock is read there). */
    private readonly dir: string,
  ) {
    this.limitation = options.limitation;
    this.folders = options.folders.map((folder) => path.resolve(folder));
    this.maxFileBytes = options.maxFileBytes ?? 5 * 1024 * 1024;
    this.keepCheckpoints = Math.max(1, options.keepCheckpoints ?? 200);
  }

  static async open(options: LimitedStoreOptions): Promise<LimitedCheckpointStore> {
    const dir = path.join(options.storageDir, 'checkpoints', 'limited');
    const { log, checkpoints } = await LimitedLog.open(dir);
    const store = new LimitedCheckpointStore(options, log, checkpoints, dir);
    if (store.dropOld() > 0) {
      await log.compact(checkpoints);
    }
    return store;
  }

  create(): Promise<string> {
    return this.run(async () => {
      const at = Date.now();
      const id = `${ID_PREFIX}${at.toString(36)}-${randomBytes(6).toString('hex')}`;
      const known = [...([...this.checkpoints.values()].at(-1)?.recorded.keys() ?? [])];
      await this.log.appendCreate(id, at);
      const recorded = new Map<string, BlobRef>();
      this.checkpoints.set(id, { at, recorded });
      // The files the newest checkpoint knows, as they are now: a turn's end knows what the turn left
      // (so "changed after the turn" is asked only when something did), the next turn what it started from.
      for (const file of known) {
        const bytes = await this.readNow(file);
        if (bytes !== UNKNOWN) {
          recorded.set(file, await this.log.appendNote([id], file, bytes));
        }
      }
      this.dropped += this.dropOld();
      if (this.dropped >= this.keepCheckpoints) {
        // The log holds as many dropped checkpoints as kept ones: rewrite it, free their blobs.
        this.dropped = 0;
        await this.log.compact(this.checkpoints);
      }
      // From here on, whatever the turn changes is dated after `at`: `note` can tell it from what was.
      await passFileClock(this.dir, at);
      return id;
    });
  }

  /**
   * Records `file`'s bytes for every checkpoint that does not know it yet, read from the disk at once
   * (not behind queued work: an agent writes right after announcing). Those bytes are what the file held
   * at a checkpoint only if it has not changed since (its ctime — or, when it is not there, its folder's —
   * is not later than the checkpoint): then they are recorded whatever the agent says. A file changed
   * since is known only by `claimed`, what the agent says it held (a diff's old text, with the disk's line
   * ends; `null`: it did not exist) — never called new while it is on the disk — and else not known: the
   * card lists it as changed with its earlier bytes unknown, never omits it.
   */
  note(file: string, claimed?: Uint8Array | null): Promise<void> {
    const absolute = path.resolve(file);
    const folder = this.folderOf(absolute);
    if (folder === undefined) {
      return Promise.resolve();
    }
    const reading = this.readNow(absolute);
    // Looked at after the read: a change while it was read is a change since every checkpoint.
    const changed = reading.then(
      () => lastChange(absolute, folder),
      () => undefined,
    );
    return this.run(async () => {
      const waiting = [...this.checkpoints].filter(([, checkpoint]) => !checkpoint.recorded.has(absolute));
      if (waiting.length === 0) {
        return;
      }
      const disk = await reading;
      if (disk === UNKNOWN) {
        this.options.logger.info(`Not recording ${absolute} for checkpoints: not a file, or too large.`);
        return;
      }
      const changedAt = await changed;
      for (const still of [true, false]) {
        const ids = waiting
          .filter(([, checkpoint]) => unchangedSince(changedAt, checkpoint.at) === still)
          .map(([id]) => id);
        if (ids.length > 0) {
          await this.record(ids, absolute, beforeBytes(disk, claimed, still));
        }
      }
    });
  }

  /** Records `bytes` as `file`'s content at checkpoints `ids` (a file too large is not recorded). */
  private async record(
    ids: readonly string[],
    file: string,
    bytes: Uint8Array | null | typeof UNKNOWN,
  ): Promise<void> {
    if (bytes instanceof Uint8Array && bytes.byteLength > this.maxFileBytes) {
      this.options.logger.info(`Not recording ${file} for checkpoints: too large.`);
      return;
    }
    const blob = await this.log.appendNote(ids, file, bytes);
    for (const id of ids) {
      this.checkpoints.get(id)?.recorded.set(file, blob);
    }
  }

  /**
   * The noted files that differ between `from` and `to`. A file `to` has no record of is compared as it
   * is on disk now: this store does not know what it was at `to`. A file whose bytes at `from` are not
   * known (it changed before it could be read) is listed as changed, its earlier bytes unknown.
   */
  changes(from: string, to?: string): Promise<FileChangeStat[]> {
    return this.run(async () => {
      const before = this.checkpoint(from).recorded;
      const after = to === undefined ? undefined : this.checkpoint(to).recorded;
      const stats: FileChangeStat[] = [];
      for (const [file, blob] of before) {
        const recordedAfter = after?.get(file);
        const now =
          recordedAfter === undefined ? await this.readNow(file) : await this.bytesOf(recordedAfter);
        if (now === UNKNOWN) {
          continue; // nothing to say about it
        }
        const folder = this.folderOf(file) ?? path.dirname(file);
        if (blob === UNKNOWN) {
          // Not known before the turn: listed (never omitted), never put back or deleted by Undo.
          const kind = now === null ? 'deleted' : 'modified';
          stats.push({ path: file, folder, kind, added: 0, removed: 0, binary: false, unrecorded: true });
          continue;
        }
        const stat = compare(file, folder, await this.bytesOf(blob), now);
        if (stat !== undefined) {
          stats.push(stat);
        }
      }
      return stats.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    });
  }

  read(id: string, file: string): Promise<Uint8Array | undefined> {
    return this.run(async () => {
      const blob = this.checkpoint(id).recorded.get(path.resolve(file));
      return blob === undefined || blob === null || blob === UNKNOWN ? undefined : this.log.readBlob(blob);
    });
  }

  /** Resolves when every queued operation has finished. */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  dispose(): void {
    this.disposed = true;
  }

  private run<T>(work: () => Promise<T>): Promise<T> {
    if (this.disposed) {
      return Promise.reject(new Error('The checkpoint store is closed.'));
    }
    return this.queue.run(work);
  }

  /** Forgets the oldest checkpoints beyond the bound; returns how many. */
  private dropOld(): number {
    const old = [...this.checkpoints.keys()].slice(
      0,
      Math.max(0, this.checkpoints.size - this.keepCheckpoints),
    );
    for (const id of old) {
      this.checkpoints.delete(id);
    }
    return old.length;
  }

  private checkpoint(id: string): LimitedCheckpoint {
    const recorded = this.checkpoints.get(id);
    if (recorded === undefined) {
      throw new CheckpointNotFoundError(id);
    }
    return recorded;
  }

  private bytesOf(blob: BlobRef): Promise<Uint8Array | null | typeof UNKNOWN> {
    return blob === null || blob === UNKNOWN ? Promise.resolve(blob) : this.log.readBlob(blob);
  }

  /** The file's bytes now; `null` when it does not exist; `unknown` for a FIFO, a device, a huge file. */
  private async readNow(file: string): Promise<Uint8Array | null | typeof UNKNOWN> {
    try {
      return new Uint8Array(await readRegularFile(file, this.maxFileBytes));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return (await isLink(file)) ? UNKNOWN : null;
      }
      if (error instanceof NotARegularFileError) {
        return UNKNOWN;
      }
      throw error;
    }
  }

  private folderOf(file: string): string | undefined {
    return this.folders
      .filter((folder) => {
        const rel = path.relative(folder, file);
        return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
      })
      .sort((a, b) => b.length - a.length)[0];
  }
}

/** A dangling link reads as absent, but it is there: not a file Undo may take for new. */
async function isLink(file: string): Promise<boolean> {
  try {
    return (await lstat(file)).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * What to record as a file's bytes at a checkpoint (see `LimitedCheckpointStore.note`): the disk's when the
 * file is `steady` (unchanged since the checkpoint), else what the agent `claimed` it held, checked against
 * the disk.
 */
function beforeBytes(
  disk: Uint8Array | null | typeof UNKNOWN,
  claimed: Uint8Array | null | undefined,
  steady: boolean,
): Uint8Array | null | typeof UNKNOWN {
  if (disk === UNKNOWN || steady) {
    return disk;
  }
  if (claimed === undefined) {
    return UNKNOWN; // changed since, and nothing says from what
  }
  if (claimed === null) {
    // "It did not exist": true if it is not there now; if it is, the agent may have created it already
    // or be wrong — either way it may have existed, and Undo must not delete it.
    return disk === null ? null : UNKNOWN;
  }
  if (disk === null) {
    return claimed; // deleted already: the agent's text is all there is, and putting it back deletes nothing
  }
  const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
  if (text(disk).replaceAll('\r\n', '\n') === text(claimed).replaceAll('\r\n', '\n')) {
    return disk; // not written yet: the disk's own bytes, its line ends included
  }
  // Written already: the agent's old text, with the line ends the file has on disk.
  const crlf = text(disk).includes('\r\n');
  const lines = text(claimed).replaceAll('\r\n', '\n');
  return new Uint8Array(Buffer.from(crlf ? lines.replaceAll('\n', '\r\n') : lines, 'latin1'));
}

function compare(
  file: string,
  folder: string,
  before: Uint8Array | null | typeof UNKNOWN,
  after: Uint8Array | null,
): FileChangeStat | undefined {
  if (before === UNKNOWN) {
    return undefined;
  }
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
