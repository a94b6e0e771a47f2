import type { ThreadEvent } from '../core/threadTypes';
import { CoalescedEvents } from './coalescedEvents';

/**
 * How often streamed events are flushed to the webview at most: once per frame of a 60 Hz
 * display, so a stream costs the view at most 60 messages a second (the timer starts at the first
 * event after a flush, so flushes are at least this far apart).
 */
export const FLUSH_INTERVAL_MS = 17;

/**
 * Coalesces a chat's thread events so a burst of thousands of chunks becomes a few
 * `postMessage`s: events queue up and flush at most once per interval, and consecutive deltas to
 * the same entry are joined into one.
 */
export class EventBatcher {
  private readonly queue = new CoalescedEvents();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly flushTo: (events: ThreadEvent[]) => void,
    private readonly intervalMs = FLUSH_INTERVAL_MS,
  ) {}

  push(event: ThreadEvent): void {
    this.queue.push(event);
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  /** Sends what is queued now (before a snapshot or a turn end must be seen in order). */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.queue.isEmpty) {
      return;
    }
    this.flushTo(this.queue.take());
  }

  /** Drops what is queued (the view will get a full snapshot instead). */
  clear(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.queue.clear();
  }

  dispose(): void {
    this.clear();
  }
}
