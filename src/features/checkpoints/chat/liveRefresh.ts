import type { Disposable } from '../../../core/util/disposable';

/**
 * Runs `work` (a snapshot of the folder for the live change list) after requests have gathered for
 * `delayMs`, and never twice at once: requests while it runs only mark it dirty, for one more run
 * after it. Snapshots must not pile up — each holds the store's queue, and the next turn's
 * checkpoint waits behind them.
 */
export class LiveRefresh implements Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running = false;
  private dirty = false;
  private disposed = false;

  constructor(
    private readonly delayMs: number,
    private readonly work: () => Promise<void>,
  ) {}

  request(): void {
    if (this.disposed) {
      return;
    }
    if (this.running) {
      this.dirty = true;
      return;
    }
    this.timer ??= setTimeout(() => this.run(), this.delayMs);
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
  }

  private run(): void {
    this.timer = undefined;
    this.running = true;
    void this.work()
      .catch(() => undefined)
      .finally(() => {
        this.running = false;
        if (this.dirty) {
          this.dirty = false;
          this.request();
        }
      });
  }
}
