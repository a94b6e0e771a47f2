import { systemClock, type Clock } from './clock';
import type { Disposable } from './disposable';

/**
 * Gathers what is posted in one turn of the event loop and sends it as one batch when that turn is over
 * (`setImmediate`: after the I/O callbacks being run, before any timer). The chat's view messages go
 * through it: each message to a webview is a trip through VS Code's window (an RPC, a socket message read
 * on the window's main thread, a message into the page), so the four or five messages one step of a turn
 * posts at once ("the chat list", "the turn started") cost one trip, and the page renders them in one frame.
 * The order is kept; nothing is held past the turn of the loop it was posted in, unless `hold` says so.
 */
export class TickBatch<T> implements Disposable {
  private pending: T[] = [];
  private scheduled = false;
  private disposed = false;
  private held: { readonly until: (item: T) => boolean; readonly timer: Disposable } | undefined;

  constructor(
    private readonly send: (batch: readonly T[]) => void,
    private readonly schedule: (flush: () => void) => void = (flush) => void setImmediate(flush),
    private readonly clock: Clock = systemClock,
  ) {}

  post(item: T): void {
    if (this.disposed) {
      return;
    }
    this.pending.push(item);
    if (this.held?.until(item)) {
      this.release();
    }
    this.scheduleFlush();
  }

  /**
   * Keeps what is posted from now (and what is pending) for at most `ms`, until a post for which `until`
   * holds: that post and everything before it then go at the end of its turn of the loop, as one batch.
   * A later hold replaces this one.
   */
  hold(ms: number, until: (item: T) => boolean): void {
    if (this.disposed) {
      return;
    }
    this.held?.timer.dispose();
    const timer = this.clock.after(ms, () => {
      if (this.held?.timer === timer) {
        this.release();
        this.scheduleFlush();
      }
    });
    this.held = { until, timer };
  }

  /** Sends what is pending now, unless it is held. */
  flush(): void {
    this.scheduled = false;
    if (this.disposed || this.held || this.pending.length === 0) {
      return;
    }
    const batch = this.pending;
    this.pending = [];
    this.send(batch);
  }

  /** Drops what is pending (its receiver is gone) and posts nothing more. */
  dispose(): void {
    this.disposed = true;
    this.release();
    this.pending = [];
  }

  private release(): void {
    this.held?.timer.dispose();
    this.held = undefined;
  }

  private scheduleFlush(): void {
    if (!this.scheduled && !this.held && this.pending.length > 0) {
      this.scheduled = true;
      this.schedule(() => this.flush());
    }
  }
}
