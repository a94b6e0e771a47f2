import type { ThreadEvent } from '../core/thread/threadTypes';
import { CoalescedEvents } from './coalescedEvents';

/**
 * How often streamed events are flushed to the webview at most: once per frame of a 60 Hz
 * display, so a stream costs the view at most 60 messages a second (flushes are at least this far
 * apart).
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
  private lastFlushAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly flushTo: (events: ThreadEvent[]) => void,
    private readonly intervalMs = FLUSH_INTERVAL_MS,
  ) {}

  push(event: ThreadEvent): void {
    this.queue.push(event);
    // Not a fixed delay from the first event: a chunk after a quiet interval goes out on the next turn
    // of the event loop (with whatever arrived in the same read), later ones when the interval since
    // the last flush is up. Same cap of one message per interval, without the interval added to the
    // latency of every chunk that opens a batch (chunk → DOM, `npm run bench`).
    this.timer ??= this.schedule();
  }

  private schedule(): ReturnType<typeof setTimeout> {
    const wait = this.lastFlushAt + this.intervalMs - performance.now();
    return setTimeout(
      () => {
        // Node's timers keep whole milliseconds of a cached loop time, so one may fire a fraction early:
        // wait out the rest rather than send two messages less than an interval apart.
        if (performance.now() < this.lastFlushAt + this.intervalMs) {
          this.timer = this.schedule();
          return;
        }
        this.flush();
      },
      Math.max(0, Math.ceil(wait)),
    );
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
    this.lastFlushAt = performance.now();
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
