import type { Disposable } from './disposable';

/**
 * Gathers what is posted in one turn of the event loop and sends it as one batch when that turn is over
 * (`setImmediate`: after the I/O callbacks being run, before any timer). The chat's view messages go
 * through it: each message to a webview is a trip through VS Code's window (an RPC, a socket message read
 * on the window's main thread, a message into the page), so the four or five messages one step of a turn
 * posts at once ("the chat list", "the turn started") cost one trip, and the page renders them in one frame.
 * The order is kept; nothing is held past the turn of the loop it was posted in.
 */
export class TickBatch<T> implements Disposable {
  private pending: T[] = [];
  private scheduled = false;
  private disposed = false;

  constructor(
    private readonly send: (batch: readonly T[]) => void,
    private readonly schedule: (flush: () => void) => void = (flush) => void setImmediate(flush),
  ) {}

  post(item: T): void {
    if (this.disposed) {
      return;
    }
    this.pending.push(item);
    if (!this.scheduled) {
      this.scheduled = true;
      this.schedule(() => this.flush());
    }
  }

  /** Sends what is pending now. */
  flush(): void {
    this.scheduled = false;
    if (this.disposed || this.pending.length === 0) {
      return;
    }
    const batch = this.pending;
    this.pending = [];
    this.send(batch);
  }

  /** Drops what is pending (its receiver is gone) and posts nothing more. */
  dispose(): void {
    this.disposed = true;
    this.pending = [];
  }
}
