import type { ChatJournal, ChatMeta } from '../core/journal/journal';
import type { Logger } from '../core/ports';
import type { ThreadEvent, ThreadSnapshot } from '../core/thread/threadTypes';
import { CoalescedEvents } from './coalescedEvents';

/** How often a streaming answer's events are flushed to the journal. */
const JOURNAL_FLUSH_MS = 500;
/** After this many appends the journal is rewritten as one snapshot, so reading it stays fast. */
const COMPACT_AFTER_APPENDS = 200;

/** The chat as its recording sees it, read when a batch is written. */
export interface RecordedChat {
  readonly id: string;
  meta(): ChatMeta;
  running(): boolean;
  snapshot(): ThreadSnapshot;
}

/**
 * One chat's writes to the journal: its thread events in batches (at once when asked, else at most every
 * `JOURNAL_FLUSH_MS`), rewritten as one snapshot every so many appends, and its meta line. A failed write
 * is logged (the journal says why in the chat); it never throws into the turn that caused it.
 */
export class ChatRecording {
  private readonly pending = new CoalescedEvents();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private appendsSinceCompaction = 0;

  constructor(
    private readonly journal: ChatJournal,
    private readonly logger: Logger,
    private readonly chat: RecordedChat,
    /** Appends before the journal is rewritten as one snapshot. */
    private readonly compactAfterAppends = COMPACT_AFTER_APPENDS,
  ) {}

  /** Queues `event`; written at once when `now`, else with the next batch. */
  add(event: ThreadEvent, now: boolean): void {
    this.pending.push(event);
    if (now) {
      void this.flush();
      return;
    }
    this.flushTimer ??= setTimeout(() => void this.flush(), JOURNAL_FLUSH_MS);
  }

  /** Writes what is pending to the journal. */
  async flush(): Promise<void> {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
    }
    const events = this.pending.take();
    try {
      if (events.length === 0) {
        return;
      }
      // Held lines beyond the journal's memory bound were dropped: only a whole snapshot saves the chat.
      const mustCompact = this.journal.needsCompaction(this.chat.id);
      if (mustCompact || (++this.appendsSinceCompaction >= this.compactAfterAppends && !this.chat.running())) {
        // The snapshot already holds these events: one snapshot line replaces the whole file.
        this.appendsSinceCompaction = 0;
        await this.journal.compact(this.chat.meta(), this.chat.snapshot());
        return;
      }
      await this.journal.appendEvents(this.chat.id, events);
    } catch (error) {
      this.logFailure(error);
    }
  }

  /** Saves the meta line; `whole`: the meta and the transcript as one snapshot (a fork's start). */
  saveMeta(whole = false): Promise<void> {
    const meta = this.chat.meta();
    const saving = whole ? this.journal.compact(meta, this.chat.snapshot()) : this.journal.saveMeta(meta);
    return saving.catch((error: unknown) => this.logFailure(error));
  }

  private logFailure(error: unknown): void {
    this.logger.error(`Could not journal chat ${this.chat.id}: ${String(error)}`);
  }
}
