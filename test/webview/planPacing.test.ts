import assert from 'node:assert/strict';
import {
  FREE_MS,
  PlanPacer,
  REST_PER_MS,
  SHOWN_WAIT_MS,
  type PacingClock,
} from '../../webview/markdown/planPacing';

/** The worker's time as a test moves it: `soon` wake-ups run at `settle()`, timers when `advance` reaches them. */
class TestClock implements PacingClock {
  time = 0;
  private soonQueue: (() => void)[] = [];
  private timers: { due: number; wake: () => void }[] = [];

  now(): number {
    return this.time;
  }
  soon(wake: () => void): void {
    this.soonQueue.push(wake);
  }
  after(ms: number, wake: () => void): void {
    this.timers.push({ due: this.time + ms, wake });
  }
  /** Runs the messages the worker sent itself (and what they queue in turn). */
  settle(): void {
    for (let round = 0; this.soonQueue.length > 0; round++) {
      assert.ok(round < 100, 'the worker keeps waking itself');
      const queued = this.soonQueue;
      this.soonQueue = [];
      queued.forEach((wake) => wake());
    }
  }
  /** Moves time on by `ms`, each timer firing at its own time, earliest first. */
  advance(ms: number): void {
    const target = this.time + ms;
    this.settle();
    for (;;) {
      const next = this.timers.filter((timer) => timer.due <= target).sort((a, b) => a.due - b.due)[0];
      if (!next) {
        break;
      }
      this.timers.splice(this.timers.indexOf(next), 1);
      this.time = Math.max(this.time, next.due);
      next.wake();
      this.settle();
    }
    this.time = Math.max(this.time, target);
  }
}

/** A pacer whose plans take `planMs()` of the clock's time each, and the times they were made at. */
function pacedWorker(planMs: () => number = () => 2) {
  const clock = new TestClock();
  const plans: number[] = [];
  let waiting = 0;
  const pacer = new PlanPacer(clock, () => {
    if (waiting === 0) {
      return;
    }
    waiting = 0;
    plans.push(clock.time);
    pacer.timed(() => {
      clock.time += planMs();
    });
  });
  const append = (): void => {
    waiting++;
    pacer.appendsWait();
  };
  return { clock, pacer, plans, append };
}

/**
 * A worker whose page showed its first answer in a long frame (30 ms, at 2): its second answer went once the
 * worker had rested (at 62, ending at 64), and the page has not said it showed that one yet.
 */
function afterSlowFrame() {
  const worker = pacedWorker();
  worker.append();
  worker.clock.settle();
  worker.pacer.shown(30);
  worker.append();
  worker.clock.advance(62);
  assert.deepEqual(worker.plans, [0, 62]);
  return worker;
}

describe('the markdown worker’s pace', () => {
  it('plans usual appends as soon as it has read what was sent before, together', () => {
    const { clock, plans, append, pacer } = pacedWorker();
    append();
    append();
    clock.settle();
    assert.deepEqual(plans, [0]);
    pacer.shown(FREE_MS - 1);
    clock.advance(10);
    append();
    clock.settle();
    assert.deepEqual(plans, [0, 12], 'a frame within its budget costs no rest');
  });

  it('rests twice a long plan’s time, and plans what came meanwhile once', () => {
    const { clock, plans, append } = pacedWorker(() => 40);
    append();
    clock.settle();
    assert.deepEqual(plans, [0]);
    // The plan ended at 40: nothing is planned before 40 + 80.
    for (let sent = 0; sent < 5; sent++) {
      append();
      clock.advance(15);
    }
    assert.equal(clock.time, 115);
    assert.deepEqual(plans, [0], 'planned while resting');
    clock.advance(4);
    assert.deepEqual(plans, [0]);
    clock.advance(1);
    assert.deepEqual(
      plans,
      [0, 40 + 40 * REST_PER_MS],
      'the appends that waited are planned once, after the rest',
    );
  });

  it('rests after a long frame of the page as after a long plan', () => {
    const { clock, plans, append, pacer } = pacedWorker();
    append();
    clock.settle();
    clock.advance(20);
    pacer.shown(50);
    append();
    clock.advance(50 * REST_PER_MS - 1);
    assert.deepEqual(plans, [0]);
    clock.advance(1);
    assert.deepEqual(plans, [0, 22 + 50 * REST_PER_MS]);
  });

  it('gives a slow page the frame of each answer before the next one', () => {
    const { clock, plans, append, pacer } = afterSlowFrame();
    // The page has not said it showed that one: what comes next waits for it, though the rest is over.
    append();
    clock.advance(100);
    assert.deepEqual(plans, [0, 62]);
    pacer.shown(20);
    clock.advance(20 * REST_PER_MS - 1);
    assert.deepEqual(plans, [0, 62]);
    clock.advance(1);
    assert.deepEqual(plans, [0, 62, 164 + 20 * REST_PER_MS]);
  });

  it('goes on when a slow page says nothing (a hidden page draws no frames)', () => {
    const { clock, plans, append } = afterSlowFrame();
    append();
    clock.advance(SHOWN_WAIT_MS - 1);
    assert.deepEqual(plans, [0, 62]);
    clock.advance(1);
    assert.deepEqual(plans, [0, 62, 64 + SHOWN_WAIT_MS]);
  });

  it('waits no more once the page’s frames are short again', () => {
    const { clock, plans, append, pacer } = afterSlowFrame();
    pacer.shown(5);
    append();
    clock.settle();
    assert.deepEqual(plans, [0, 62, 64]);
  });
});
