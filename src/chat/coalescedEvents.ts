import type { ThreadEvent } from '../core/thread/threadTypes';

/**
 * Thread events waiting to be sent or journaled, in order, with consecutive text deltas to the
 * same entry joined. The deltas are kept as a list and joined once, when the events are taken:
 * a burst of thousands of chunks allocates no growing string and no event object per chunk.
 */
export class CoalescedEvents {
  private events: ThreadEvent[] = [];
  /** The entry of the text delta being collected, if the last event is one. */
  private textEntryId: string | undefined;
  private textParts: string[] = [];

  get isEmpty(): boolean {
    return this.events.length === 0 && this.textEntryId === undefined;
  }

  push(event: ThreadEvent): void {
    if (event.type === 'text_appended') {
      if (event.entryId !== this.textEntryId) {
        this.sealText();
        this.textEntryId = event.entryId;
      }
      this.textParts.push(event.text);
      return;
    }
    this.sealText();
    this.events.push(event);
  }

  /** Everything collected, in order; the queue is empty afterwards. */
  take(): ThreadEvent[] {
    this.sealText();
    const events = this.events;
    this.events = [];
    return events;
  }

  clear(): void {
    this.events = [];
    this.textEntryId = undefined;
    this.textParts = [];
  }

  private sealText(): void {
    if (this.textEntryId === undefined) {
      return;
    }
    this.events.push({ type: 'text_appended', entryId: this.textEntryId, text: this.textParts.join('') });
    this.textEntryId = undefined;
    this.textParts = [];
  }
}
