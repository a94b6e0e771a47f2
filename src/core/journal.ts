import { randomUUID } from 'node:crypto';
import { link, mkdir, open, readdir, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import * as z from 'zod';
// The thread's wire schemas double as the journal's: the journal is read back from disk, untrusted.
import { ThreadEventSchema, ThreadSnapshotSchema } from '../protocol/thread';
import { applyThreadEvent, snapshotOf, threadModelOf } from '../protocol/threadModel';
import type { ThreadEvent, ThreadSnapshot } from './threadTypes';
import { scrubSecrets } from './secrets';

/** What the journal knows about a chat besides its transcript. */
export interface ChatMeta {
  readonly chatId: string;
  readonly agentId: string;
  /** The agent's session id, for `session/load` / `session/resume` after a restart. */
  readonly acpSessionId?: string;
  /** A name the user gave the chat; wins over the agent's title. */
  readonly customTitle?: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface JournaledChat {
  readonly meta: ChatMeta;
  readonly thread: ThreadSnapshot;
  /** The file's size in bytes, for retention. */
  readonly bytes: number;
  /** Set when part of the journal could not be read: the chat says so rather than staying silent. */
  readonly damage?: JournalDamage;
}

/** What reading a damaged journal lost, and what it recovered. */
export interface JournalDamage {
  /** Lines that could not be parsed (torn, garbled, or of an unknown shape). */
  readonly unreadableLines: number;
  /** Entries whose creating line was lost, rebuilt from the lines that followed it. */
  readonly rebuiltEntries: number;
  /** The compacted snapshot line was unreadable; the history came from the previous compaction. */
  readonly snapshotFromPrevious: boolean;
}

const MetaSchema = z.object({
  chatId: z.string().regex(/^[A-Za-z0-9_-]+$/),
  agentId: z.string(),
  acpSessionId: z.string().optional(),
  customTitle: z.string().optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

/** One line of a chat's journal file. */
const RecordSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('meta'), meta: MetaSchema }),
  z.object({ t: z.literal('events'), events: z.array(ThreadEventSchema) }),
  z.object({ t: z.literal('snapshot'), thread: ThreadSnapshotSchema }),
]);
type JournalRecord = z.infer<typeof RecordSchema>;
/** What is written: the same shapes, from the core's own (readonly) types. */
type WrittenRecord =
  | { readonly t: 'meta'; readonly meta: ChatMeta }
  | { readonly t: 'events'; readonly events: readonly ThreadEvent[] }
  | { readonly t: 'snapshot'; readonly thread: ThreadSnapshot };

export interface Retention {
  /** Chats kept, newest first by last update. */
  readonly maxChats: number;
  /** Bytes of journal kept in all; the oldest chats go first. */
  readonly maxBytes: number;
}

/**
 * Every chat, journaled by the extension itself — independent of the agent — as an append-only
 * JSON-lines file per chat in the extension's storage: a `meta` line, then batches of thread
 * events as they happen. Appends are fsynced; a torn last line (a crash mid-write) is skipped
 * when reading and never spoils the lines before it. A long journal is compacted into one
 * snapshot line by writing a new file and renaming it over the old one.
 */
export class ChatJournal {
  private readonly folder: string;
  /** Serializes writes per chat so records never interleave. */
  private readonly queues = new Map<string, Promise<void>>();

  constructor(storageDir: string) {
    this.folder = path.join(storageDir, 'chats');
  }

  static newChatId(): string {
    return randomUUID();
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

  /** Replaces a chat's journal by its meta and one snapshot (write to a temp file, then rename). */
  compact(meta: ChatMeta, thread: ThreadSnapshot): Promise<void> {
    return this.enqueue(meta.chatId, async () => {
      await mkdir(this.folder, { recursive: true });
      const target = this.file(meta.chatId);
      const temp = `${target}.${process.pid}.tmp`;
      const lines =
        [
          { t: 'meta', meta },
          { t: 'snapshot', thread },
        ]
          .map((r) => scrubSecrets(JSON.stringify(r)))
          .join('\n') + '\n';
      const handle = await open(temp, 'w');
      try {
        await handle.writeFile(lines, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      // The journal being replaced stays as `.prev` until the next compaction: should the new
      // snapshot line ever prove unreadable, the history is rebuilt from it.
      await rm(`${target}${PREVIOUS}`, { force: true });
      await link(target, `${target}${PREVIOUS}`).catch(() => {});
      await rename(temp, target);
      await syncFolder(this.folder);
    });
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
    try {
      [text, bytes] = await Promise.all([
        readFile(this.file(chatId), 'utf8'),
        stat(this.file(chatId)).then((s) => s.size),
      ]);
    } catch {
      return undefined;
    }
    const parsed = parseJournal(text);
    if (!parsed.meta) {
      return undefined;
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
    await this.enqueue(chatId, async () => {
      await rm(this.file(chatId), { force: true });
      await rm(`${this.file(chatId)}${PREVIOUS}`, { force: true });
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

  /** Waits for every queued write. */
  async flush(): Promise<void> {
    await Promise.all([...this.queues.values()]);
  }

  private append(chatId: string, records: readonly WrittenRecord[]): Promise<void> {
    return this.enqueue(chatId, async () => {
      await mkdir(this.folder, { recursive: true });
      const handle = await open(this.file(chatId), 'a+');
      try {
        // A torn previous line must not swallow this record: start on a fresh line.
        const prefix = (await handle.stat()).size > 0 && !(await endsWithNewline(handle)) ? '\n' : '';
        await handle.appendFile(
          prefix + records.map((r) => scrubSecrets(JSON.stringify(r))).join('\n') + '\n',
          'utf8',
        );
        await handle.sync();
      } finally {
        await handle.close();
      }
    });
  }

  private enqueue(chatId: string, work: () => Promise<void>): Promise<void> {
    const previous = this.queues.get(chatId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => {});
    this.queues.set(chatId, settled);
    void settled.then(() => {
      if (this.queues.get(chatId) === settled) {
        this.queues.delete(chatId);
      }
    });
    return next;
  }

  private file(chatId: string): string {
    if (!/^[A-Za-z0-9_-]+$/.test(chatId)) {
      throw new Error(`Invalid chat id ${chatId}`);
    }
    return path.join(this.folder, `${chatId}.jsonl`);
  }
}

/** Suffix of the journal a compaction replaced (not `.jsonl`: it is not a chat of its own). */
const PREVIOUS = '.prev';

interface ParsedJournal {
  meta?: ChatMeta;
  snapshot?: ThreadSnapshot;
  readonly events: ThreadEvent[];
  unreadable: number;
  /** An unreadable line that looks like a snapshot (and no readable snapshot after it). */
  snapshotLost: boolean;
}

function parseJournal(text: string): ParsedJournal {
  const parsed: ParsedJournal = { events: [], unreadable: 0, snapshotLost: false };
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      continue;
    }
    const record = parseRecord(line);
    if (!record) {
      // A torn or garbled line: skip it, keep the rest, and say so.
      parsed.unreadable++;
      if (/^\s*\{\s*"t"\s*:\s*"snapshot"/.test(line)) {
        parsed.snapshotLost = true;
        parsed.snapshot = undefined;
        parsed.events.length = 0;
      }
      continue;
    }
    if (record.t === 'meta') {
      parsed.meta = record.meta;
    } else if (record.t === 'snapshot') {
      parsed.snapshot = record.thread as ThreadSnapshot;
      parsed.snapshotLost = false;
      parsed.events.length = 0;
    } else {
      parsed.events.push(...(record.events as ThreadEvent[]));
    }
  }
  return parsed;
}

/** Makes a rename in `folder` durable (where the platform allows opening a folder). */
async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Windows cannot open a folder for sync; the rename is as durable as it gets there.
  }
}

function parseRecord(line: string): JournalRecord | undefined {
  try {
    const parsed = RecordSchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

async function endsWithNewline(handle: FileHandle): Promise<boolean> {
  const { size } = await handle.stat();
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

/**
 * Rebuilds a thread snapshot from a starting snapshot and the events after it, through the same
 * `applyThreadEvent` the live thread uses. An update or appended text for an entry that was never
 * added (its line was lost) rebuilds the entry rather than dropping what is known of it;
 * `rebuilt` counts those.
 */
export function replay(
  start: ThreadSnapshot | undefined,
  events: readonly ThreadEvent[],
): { snapshot: ThreadSnapshot; rebuilt: number } {
  const model = threadModelOf(start);
  let rebuilt = 0;
  for (const event of events) {
    if (applyThreadEvent(model, event).type === 'rebuilt') {
      rebuilt++;
    }
  }
  return { snapshot: snapshotOf(model), rebuilt };
}
