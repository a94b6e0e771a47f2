import type { ThreadEvent } from '../core/thread/threadTypes';
import { CoalescedEvents } from './coalescedEvents';

/**
 * How often streamed events are flushed to the webview at most: once per frame of a 60 Hz
 * display, so a stream costs the view at most 60 messages a second (flushes are at least this far
 * apart).
 */
export const FLUSH_INTERVAL_MS = 17;

/**
 * Past this many characters of text streamed in one turn (about ten screens of the sidebar), the
 * answer is long: the reader is reading what came before, not the line being written.
 */
export const LONG_ANSWER_CHARS = 32_000;

/**
 * How often a long answer is flushed at most: 20 times a second, the rate VS Code's own chat
 * renders a streaming answer at. Each message costs the page a frame (its style, layout and paint,
 * ≈ 10 ms late in a 2 MB answer whatever the message adds) and the window its transport: at 60 a
 * second a fast agent kept the page's main thread busy throughout. Measured (docs/performance.md):
 * a quarter to a third less of the window's main thread for a 1 MB answer in VS Code, 40 % less
 * in the bench.
 */
export const LONG_ANSWER_FLUSH_INTERVAL_MS = 50;

/**
 * Coalesces a chat's thread events so a burst of thousands of chunks becomes a few
 * `postMessage`s: events queue up and flush at most once per interval, and consecutive deltas to
 * the same entry are joined into one. Once a turn's text is long, the interval is the long
 * answer's (LONG_ANSWER_FLUSH_INTERVAL_MS) until the next turn starts.
 */
export class EventBatcher {
  private readonly queue = new CoalescedEvents();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  /** Characters of text pushed since the last turn started. */
  private turnChars = 0;

  constructor(
    private readonly flushTo: (events: ThreadEvent[]) => void,
    private readonly intervalMs = FLUSH_INTERVAL_MS,
  ) {}

  push(event: ThreadEvent): void {
    if (event.type === 'turn_started') {
      this.turnChars = 0;
    } else if (event.type === 'text_appended') {
      this.turnChars += event.text.length;
    }
    this.queue.push(event);
    // Not a fixed delay from the first event: a chunk after a quiet interval goes out on the next turn
    // of the event loop (with whatever arrived in the same read), later ones when the interval since
    // the last flush is up. Same cap of one message per interval, without the interval added to the
    // latency of every chunk that opens a batch (chunk → DOM, `npm run bench`).
    this.timer ??= this.schedule();
  }

  /** The interval between flushes now: the long answer's once this turn's text is long. */
  private interval(): number {
    return this.turnChars > LONG_ANSWER_CHARS
      ? Math.max(this.intervalMs, LONG_ANSWER_FLUSH_INTERVAL_MS)
      : this.intervalMs;
  }

  private schedule(): ReturnType<typeof setTimeout> {
    const wait = this.lastFlushAt + this.interval() - performance.now();
    return setTimeout(
      () => {
        // Node's timers keep whole milliseconds of a cached loop time, so one may fire a fraction early:
        // wait out the rest rather than send two messages less than an interval apart.
        if (performance.now() < this.lastFlushAt + this.interval()) {
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
