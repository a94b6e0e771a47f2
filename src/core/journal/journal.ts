import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { Emitter, type Disposable } from '../util/disposable';
import {
  appendLines,
  fingerprint,
  fingerprintOf,
  ABSENT,
  PREVIOUS,
  replaceFile,
  writeFailureReason,
} from './journalFiles';
import { parseJournal, replay, type ChatMeta, type JournalDamage, type WrittenRecord } from './journalFormat';
import { WriterLocks } from './journalLock';
import { chatLockPath, claimChatFile, SaveRefused } from './chatFileClaim';
import { SerialQueue } from '../util/serialQueue';
import type { ThreadEvent, ThreadSnapshot } from '../thread/threadTypes';
import { scrubSecrets } from '../secrets/secrets';

export { replay, type ChatMeta, type JournalDamage } from './journalFormat';

export interface JournaledChat {
  readonly meta: ChatMeta;
  readonly thread: ThreadSnapshot;
  /** The file's size in bytes, for retention. */
  readonly bytes: number;
  /** Set when part of the journal could not be read: the chat says so rather than staying silent. */
  readonly damage?: JournalDamage;
}

export interface Retention {
  /** Chats kept, newest first by last update. */
  readonly maxChats: number;
  /** Bytes of journal kept in all; the oldest chats go first. */
  readonly maxBytes: number;
}

export interface JournalOptions {
  /** Bytes of unwritten lines kept per chat while writes fail; beyond it the chat must be compacted. */
  readonly maxHeldBytes?: number;
  /** Wait before retrying a failed write. */
  readonly retryMs?: number;
  /** A lock of another host not refreshed for this long is stale. */
  readonly staleLockMs?: number;
}

/** Per chat: its write queue and what is not on disk yet. */
interface ChatWrites {
  readonly queue: SerialQueue;
  /** Lines to append, in order, not yet written. */
  held: string[];
  heldBytes: number;
  /** A compaction not yet written: the whole new file. */
  rewrite?: string;
  /** Held lines were dropped for the bound: only a compaction can save the chat now. */
  overflowed: boolean;
  /** Why the last write failed, while it is so; `elsewhere`: another window holds the chat. */
  problem?: { readonly reason: string; readonly elsewhere: boolean };
  /**
   * The file as this journal last read or wrote it (inode, size, time; `ABSENT`: it did not exist). Unset
   * until this window reads or creates the chat: it then writes only where no file is.
   */
  known?: string;
  retry?: ReturnType<typeof setTimeout>;
}

/**
 * Every chat, journaled by the extension itself — independent of the agent — as an append-only
 * JSON-lines file per chat in the extension's storage: a `meta` line, then batches of thread
 * events as they happen. Appends are fsynced; a torn last line (a crash mid-write) is skipped
 * when reading and never spoils the lines before it. A long journal is compacted into one
 * snapshot line by writing a new file and renaming it over the old one.
 *
 * A write never loses a turn silently: lines that could not be written are held (bounded) and
 * retried, and `savingProblem` says why meanwhile. One window writes a chat at a time (a lock file
 * with its pid and host); a chat whose file changed under this window is not written over, so a
 * compaction never drops lines it did not read. See docs/reliability.md.
 */
export class ChatJournal implements Disposable {
  private readonly folder: string;
  private readonly chats = new Map<string, ChatWrites>();
  private readonly locks: WriterLocks;
  private readonly savingEmitter = new Emitter<string>();
  /** A chat started or stopped being saved (its id); read `savingProblem`. */
  readonly onDidChangeSaving = this.savingEmitter.event;
  private readonly maxHeldBytes: number;
  private readonly retryMs: number;
  /** Set once the window closes: later writes are dropped (`close`). */
  private closed = false;

  constructor(storageDir: string, options: JournalOptions = {}) {
    this.folder = path.join(storageDir, 'chats');
    this.maxHeldBytes = options.maxHeldBytes ?? 8 * 1024 * 1024;
    this.retryMs = options.retryMs ?? 5_000;
    this.locks = new WriterLocks(
      options.staleLockMs !== undefined ? { staleAfterMs: options.staleLockMs } : {},
    );
  }

  static newChatId(): string {
    return randomUUID();
  }

  /** Why a chat is not being saved (its lines are held in memory), while that is so. */
  savingProblem(chatId: string): string | undefined {
    return this.chats.get(chatId)?.problem?.reason;
  }

  /** Another window holds the chat (or wrote it since it was read here): turns here would never be written. */
  writtenElsewhere(chatId: string): boolean {
    return this.chats.get(chatId)?.problem?.elsewhere === true;
  }

  /** Held lines were dropped for the memory bound: the next write must be a compaction. */
  needsCompaction(chatId: string): boolean {
    return this.chats.get(chatId)?.overflowed === true;
  }

  /** A chat this journal creates: its file must not exist yet. */
  created(chatId: string): void {
    this.writes(chatId).known ??= ABSENT;
  }

  /** Writes (or updates) a chat's meta line. */
  saveMeta(meta: ChatMeta): Promise<void> {
    return this.append(meta.chatId, [{ t: 'meta', meta }]);
  }

  appendEvents(chatId: string, events: readonly ThreadEvent[]): Promise<void> {
    if (events.length === 0) {
      return Promise.resolve();
    }
    return this.append(chatId, [{ t: 'events', events }]);
  }

  /**
   * Replaces a chat's journal by its meta and one snapshot (write to a temp file, then rename).
   * The snapshot holds every line held so far, so those are dropped for it.
   */
  compact(meta: ChatMeta, thread: ThreadSnapshot): Promise<void> {
    if (this.closed) {
      return Promise.resolve();
    }
    this.file(meta.chatId);
    const writes = this.writes(meta.chatId);
    writes.rewrite = lines([
      { t: 'meta', meta },
      { t: 'snapshot', thread },
    ]);
    writes.held = [];
    writes.heldBytes = 0;
    writes.overflowed = false;
    return this.drainLater(meta.chatId);
  }

  /** Reads every chat (skipping unreadable files), newest first. */
  async readAll(): Promise<JournaledChat[]> {
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch {
      return [];
    }
    const chats = await Promise.all(
      names.filter((n) => n.endsWith('.jsonl')).map((n) => this.read(n.slice(0, -'.jsonl'.length))),
    );
    return chats
      .filter((c): c is JournaledChat => c !== undefined)
      .sort((a, b) => b.meta.updatedAt - a.meta.updatedAt || b.meta.createdAt - a.meta.createdAt);
  }

  /**
   * One chat, rebuilt from its journal; undefined when there is no readable meta line. Every
   * readable line counts: a garbled one is skipped (and reported in `damage`), an unreadable
   * snapshot is replaced by the previous compaction's journal.
   */
  async read(chatId: string): Promise<JournaledChat | undefined> {
    let text: string;
    let bytes: number;
    let known: string;
    try {
      const handle = await open(this.file(chatId), 'r');
      try {
        const before = await handle.stat();
        text = await handle.readFile('utf8');
        bytes = Buffer.byteLength(text);
        known = fingerprint({ ...before, size: bytes });
      } finally {
        await handle.close();
      }
    } catch {
      return undefined;
    }
    const parsed = parseJournal(text);
    if (!parsed.meta) {
      return undefined;
    }
    // What this window has seen: it may append after it, and compact it, but nothing newer.
    const writes = this.writes(chatId);
    if (writes.held.length === 0 && writes.rewrite === undefined) {
      writes.known = known;
    }
    let start = parsed.snapshot;
    let previousUsed = false;
    let unreadable = parsed.unreadable;
    if (parsed.snapshotLost && !start) {
      const previous = await readFile(`${this.file(chatId)}${PREVIOUS}`, 'utf8').catch(() => undefined);
      const older = previous === undefined ? undefined : parseJournal(previous);
      if (older) {
        start = replay(older.snapshot, older.events).snapshot;
        unreadable += older.unreadable;
        previousUsed = true;
      }
    }
    const { snapshot: thread, rebuilt } = replay(start, parsed.events);
    const damaged = unreadable > 0 || rebuilt > 0 || previousUsed;
    return {
      meta: parsed.meta,
      thread,
      bytes,
      ...(damaged
        ? {
            damage: {
              unreadableLines: unreadable,
              rebuiltEntries: rebuilt,
              snapshotFromPrevious: previousUsed,
            },
          }
        : {}),
    };
  }

  async delete(chatId: string): Promise<void> {
    const file = this.file(chatId);
    const writes = this.writes(chatId);
    await writes.queue.run(async () => {
      if (writes.retry) {
        clearTimeout(writes.retry);
      }
      this.chats.delete(chatId);
      await rm(file, { force: true });
      await rm(`${file}${PREVIOUS}`, { force: true });
      this.locks.release(chatLockPath(file));
    });
  }

  /** Deletes the oldest chats beyond the limits; returns the ids deleted. */
  async enforce(retention: Retention, keep: ReadonlySet<string> = new Set()): Promise<string[]> {
    const chats = await this.readAll();
    const deleted: string[] = [];
    let bytes = 0;
    let count = 0;
    for (const chat of chats) {
      const over = count + 1 > retention.maxChats || bytes + chat.bytes > retention.maxBytes;
      if (over && !keep.has(chat.meta.chatId)) {
        await this.delete(chat.meta.chatId);
        deleted.push(chat.meta.chatId);
      } else {
        count++;
        bytes += chat.bytes;
      }
    }
    return deleted;
  }

  /** Waits for every queued write (a failed one stays held; `savingProblem` says so). */
  async flush(): Promise<void> {
    await Promise.all([...this.chats.values()].map((writes) => writes.queue.idle()));
  }

  /** Retries every held write now (instead of at the next retry). */
  retryNow(): Promise<void> {
    return Promise.all([...this.chats.keys()].map((chatId) => this.drainLater(chatId))).then(() => undefined);
  }

  /**
   * The window closes: what is queued is still written (`flush`), nothing asked later is. A turn still
   * running is then read back as cut off by the close, whatever stopping its agent makes of it here.
   */
  close(): void {
    this.closed = true;
  }

  /** Stops retrying and gives up this window's locks (the window closes; another may write). */
  dispose(): void {
    for (const writes of this.chats.values()) {
      if (writes.retry) {
        clearTimeout(writes.retry);
      }
    }
    this.locks.dispose();
    this.savingEmitter.dispose();
  }

  private append(chatId: string, records: readonly WrittenRecord[]): Promise<void> {
    if (this.closed) {
      return Promise.resolve();
    }
    try {
      this.file(chatId);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const writes = this.writes(chatId);
    const text = lines(records);
    if (writes.heldBytes + text.length > this.maxHeldBytes) {
      // Memory stays bounded: these lines go, and the chat's next write is a whole snapshot.
      writes.held = [];
      writes.heldBytes = 0;
      writes.overflowed = true;
    } else if (!writes.overflowed) {
      writes.held.push(text);
      writes.heldBytes += text.length;
    }
    return this.drainLater(chatId);
  }

  private drainLater(chatId: string): Promise<void> {
    const writes = this.writes(chatId);
    return writes.queue.run(() => this.drain(chatId, writes));
  }

  /** Writes what is held: a pending compaction first, then the appended lines. */
  private async drain(chatId: string, writes: ChatWrites): Promise<void> {
    if (this.chats.get(chatId) !== writes || (writes.held.length === 0 && writes.rewrite === undefined)) {
      return;
    }
    if (writes.retry) {
      clearTimeout(writes.retry);
      writes.retry = undefined;
    }
    const file = this.file(chatId);
    try {
      await mkdir(this.folder, { recursive: true });
      await claimChatFile(this.locks, file, writes.known);
      const rewrite = writes.rewrite;
      if (rewrite !== undefined) {
        await replaceFile(file, rewrite);
        if (writes.rewrite === rewrite) {
          writes.rewrite = undefined;
        }
        writes.known = await fingerprintOf(file);
      }
      const count = writes.held.length;
      if (count > 0) {
        writes.known = await appendLines(file, writes.held.slice(0, count).join(''));
        writes.held.splice(0, count);
        writes.heldBytes = writes.held.reduce((sum, text) => sum + text.length, 0);
      }
      this.setProblem(chatId, writes, undefined);
    } catch (error) {
      const elsewhere = error instanceof SaveRefused;
      this.setProblem(chatId, writes, {
        reason: elsewhere ? error.message : writeFailureReason(error),
        elsewhere,
      });
      writes.retry = setTimeout(() => void this.drainLater(chatId), this.retryMs);
      writes.retry.unref?.();
    }
  }

  private setProblem(chatId: string, writes: ChatWrites, problem: ChatWrites['problem']): void {
    if (writes.problem?.reason !== problem?.reason || writes.problem?.elsewhere !== problem?.elsewhere) {
      writes.problem = problem;
      this.savingEmitter.fire(chatId);
    }
  }

  private writes(chatId: string): ChatWrites {
    let writes = this.chats.get(chatId);
    if (!writes) {
      writes = { queue: new SerialQueue(), held: [], heldBytes: 0, overflowed: false };
      this.chats.set(chatId, writes);
    }
    return writes;
  }

  private file(chatId: string): string {
    if (!/^[A-Za-z0-9_-]+$/.test(chatId)) {
      throw new Error(`Invalid chat id ${chatId}`);
    }
    return path.join(this.folder, `${chatId}.jsonl`);
  }
}

function lines(records: readonly WrittenRecord[]): string {
  return records.map((r) => scrubSecrets(JSON.stringify(r))).join('\n') + '\n';
}
