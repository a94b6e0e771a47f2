import * as z from 'zod/mini';
// The thread's wire schemas double as the journal's: the journal is read back from disk, untrusted.
import { ThreadEventSchema, ThreadSnapshotSchema } from '../../protocol/thread';
import { applyThreadEvent, snapshotOf, threadModelOf } from '../../protocol/threadModel';
import type { ThreadEvent, ThreadSnapshot } from '../thread/threadTypes';

/** What the journal knows about a chat besides its transcript. */
export interface ChatMeta {
  readonly chatId: string;
  readonly agentId: string;
  /** The agent's session id, for `session/load` / `session/resume` after a restart. */
  readonly acpSessionId?: string;
  /** A name the user gave the chat; wins over the agent's title. */
  readonly customTitle?: string;
  /** The chat this one was forked from (Edit and resend). */
  readonly forkOf?: string;
  /** The workspace folder the chat's sessions run in, when chosen (multi-root). */
  readonly cwd?: string;
  /**
   * The chat's session is a new one that has not seen the transcript yet (the earlier one could not be
   * taken up, or a fork): the next prompt carries it, also after a reload.
   */
  readonly transcriptOwed?: true;
  readonly createdAt: number;
  readonly updatedAt: number;
}

const MetaSchema = z.object({
  chatId: z.string().check(z.regex(/^[A-Za-z0-9_-]+$/)),
  agentId: z.string(),
  acpSessionId: z.optional(z.string()),
  customTitle: z.optional(z.string()),
  forkOf: z.optional(z.string()),
  cwd: z.optional(z.string()),
  transcriptOwed: z.optional(z.literal(true)),
  createdAt: z.number(),
  updatedAt: z.number(),
});

/** One line of a chat's journal file. */
const RecordSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('meta'), meta: MetaSchema }),
  z.object({ t: z.literal('events'), events: z.array(ThreadEventSchema) }),
  z.object({ t: z.literal('snapshot'), thread: ThreadSnapshotSchema }),
]);
export type JournalRecord = z.infer<typeof RecordSchema>;
/** What is written: the same shapes, from the core's own (readonly) types. */
export type WrittenRecord =
  | { readonly t: 'meta'; readonly meta: ChatMeta }
  | { readonly t: 'events'; readonly events: readonly ThreadEvent[] }
  | { readonly t: 'snapshot'; readonly thread: ThreadSnapshot };

export interface ParsedJournal {
  meta?: ChatMeta;
  snapshot?: ThreadSnapshot;
  readonly events: ThreadEvent[];
  unreadable: number;
  /** An unreadable line that looks like a snapshot (and no readable snapshot after it). */
  snapshotLost: boolean;
}

export function parseJournal(text: string): ParsedJournal {
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

function parseRecord(line: string): JournalRecord | undefined {
  try {
    const parsed = RecordSchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
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

/** What reading a damaged journal lost, and what it recovered. */
export interface JournalDamage {
  /** Lines that could not be parsed (torn, garbled, or of an unknown shape). */
  readonly unreadableLines: number;
  /** Entries whose creating line was lost, rebuilt from the lines that followed it. */
  readonly rebuiltEntries: number;
  /** The compacted snapshot line was unreadable; the history came from the previous compaction. */
  readonly snapshotFromPrevious: boolean;
}
