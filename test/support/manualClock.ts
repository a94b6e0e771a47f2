import type { Clock } from '../../src/core/util/clock';
import type { Disposable } from '../../src/core/util/disposable';

/**
 * A clock that only moves when the test says so: a deadline fires at `advance()`, never on its own,
 * so a test of a 20 s deadline takes no 20 s and cannot race the machine's load.
 */
export class ManualClock implements Clock {
  private now = 0;
  private readonly timers = new Set<{ readonly due: number; readonly callback: () => void }>();

  after(ms: number, callback: () => void): Disposable {
    const timer = { due: this.now + ms, callback };
    this.timers.add(timer);
    return { dispose: () => this.timers.delete(timer) };
  }

  /** Timers waiting (set and not yet fired or disposed). */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves time on by `ms`, firing every timer that falls due, earliest first. */
  advance(ms: number): void {
    this.now += ms;
    const due = [...this.timers].filter((timer) => timer.due <= this.now).sort((a, b) => a.due - b.due);
    for (const timer of due) {
      this.timers.delete(timer);
      timer.callback();
    }
  }
}
