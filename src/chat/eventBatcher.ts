import type { ThreadEvent } from '../core/threadTypes';

/** How often streamed events are flushed to the webview at most. */
export const FLUSH_INTERVAL_MS = 16;

/**
 * Coalesces a chat's thread events so a burst of thousands of chunks becomes a few
 * `postMessage`s: events queue up and flush at most once per interval, and consecutive deltas to
 * the same entry are joined into one.
 */
export class EventBatcher {
  private queue: ThreadEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly flushTo: (events: ThreadEvent[]) => void,
    private readonly intervalMs = FLUSH_INTERVAL_MS,
  ) {}

  push(event: ThreadEvent): void {
    const last = this.queue.at(-1);
    if (event.type === 'text_appended' && last?.type === 'text_appended' && last.entryId === event.entryId) {
      this.queue[this.queue.length - 1] = { ...last, text: last.text + event.text };
    } else {
      this.queue.push(event);
    }
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  /** Sends what is queued now (before a snapshot or a turn end must be seen in order). */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.queue.length === 0) {
      return;
    }
    const events = this.queue;
    this.queue = [];
    this.flushTo(events);
  }

  /** Drops what is queued (the view will get a full snapshot instead). */
  clear(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.queue = [];
  }

  dispose(): void {
    this.clear();
  }
}
