/**
 * How often the markdown worker plans the appends that waited. A tail that is one long block (a table of
 * thousands of rows, a long list, a paragraph of 200 KB) is parsed again whole at every plan, and the page lays
 * the whole block out and paints it again at every answer: a table of 2,000 rows streamed at a model's pace cost
 * the page ≈ 40 ms a frame, 20 frames a second — most of a core for as long as it streamed. After a plan, or a
 * frame of the page showing an answer, that took longer than a frame, the worker rests twice that time before it
 * plans again; the appends that come meanwhile wait and are planned together. So neither the worker nor the page
 * spends more than about a third of a core on one long block, however the answer is shaped; a usual tail (a few
 * milliseconds to plan and show) never waits.
 */

/** A plan, or a frame showing an answer, shorter than this (ms) costs no rest: a frame's budget. */
export const FREE_MS = 16;
/** The rest after a longer one, as a multiple of its time: at most a third of the time goes to planning or showing. */
export const REST_PER_MS = 2;
/**
 * While the page's frames are long, how long the worker waits for the page to say it has shown its last answer
 * before it plans the next one anyway (a hidden page draws no frames and says nothing).
 */
export const SHOWN_WAIT_MS = 250;

/** Time and wake-ups, as the worker has them (a test gives its own). */
export interface PacingClock {
  now(): number;
  /** Runs `wake` once the messages already sent to the worker have been read. */
  soon(wake: () => void): void;
  /** Runs `wake` after `ms` milliseconds. */
  after(ms: number, wake: () => void): void;
}

export class PlanPacer {
  /** Appends wait to be planned. */
  private appendsWaiting = false;
  /** The wake-up that counts (one queued before it is ignored): 0 when none is queued. */
  private wakeToken = 0;
  private lastToken = 0;
  /** No waiting appends are planned before this time (the clock's). */
  private restUntil = -Infinity;
  /** The page's last frame showing answers was long: it is given each answer's frame before the next answer. */
  private slowPage = false;
  /** When the first answer the page has not said it showed was sent; undefined when it said so since. */
  private unshownSince: number | undefined;

  constructor(
    private readonly clock: PacingClock,
    /** Plans every append that waited. */
    private readonly planWaiting: () => void,
  ) {}

  /** Appends wait: planned once the messages sent before are read, the worker has rested and a slow page showed. */
  appendsWait(): void {
    this.appendsWaiting = true;
    if (this.wakeToken === 0) {
      this.queueWake();
    }
  }

  /** Runs a plan (its answer is sent next), timed: a long one earns the worker a rest. */
  timed<T>(plan: () => T): T {
    const started = this.clock.now();
    try {
      return plan();
    } finally {
      const ended = this.clock.now();
      this.unshownSince ??= ended;
      this.spent(ended - started);
    }
  }

  /** The page took `ms` to apply answers and show them in a frame: a long frame earns a rest as a long plan does. */
  shown(ms: number): void {
    this.unshownSince = undefined;
    this.slowPage = ms >= FREE_MS;
    this.spent(ms);
    if (this.appendsWaiting) {
      // Due at another time now: the wake-up queued before is ignored.
      this.queueWake();
    }
  }

  private spent(ms: number): void {
    if (ms >= FREE_MS) {
      this.restUntil = Math.max(this.restUntil, this.clock.now() + ms * REST_PER_MS);
    }
  }

  /** How long until waiting appends may be planned (≤ 0: now). */
  private dueIn(): number {
    const now = this.clock.now();
    const rested = this.restUntil - now;
    if (!this.slowPage || this.unshownSince === undefined) {
      return rested;
    }
    return Math.max(rested, this.unshownSince + SHOWN_WAIT_MS - now);
  }

  private queueWake(): void {
    const token = (this.wakeToken = ++this.lastToken);
    const wake = (): void => {
      if (token !== this.wakeToken) {
        return;
      }
      this.wakeToken = 0;
      if (this.dueIn() > 0) {
        // A plan made meanwhile (an end, a replaced text) earned a longer rest.
        this.queueWake();
        return;
      }
      this.appendsWaiting = false;
      this.planWaiting();
    };
    const due = this.dueIn();
    if (due > 0) {
      this.clock.after(due, wake);
    } else {
      this.clock.soon(wake);
    }
  }
}
