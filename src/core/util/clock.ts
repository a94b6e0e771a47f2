import type { Disposable } from './disposable';

/**
 * When things happen: the one seam for timers that bound a wait (a request's deadline), so a test
 * can move time on by hand instead of sleeping (`test/support/manualClock.ts`).
 */
export interface Clock {
  /** Calls `callback` once, `ms` from now; disposing it first cancels it. */
  after(ms: number, callback: () => void): Disposable;
}

/** Node's timers. */
export const systemClock: Clock = {
  after(ms, callback) {
    const timer = setTimeout(callback, ms);
    return { dispose: () => clearTimeout(timer) };
  },
};

/**
 * A signal that aborts `ms` from now on `clock`, with a `TimeoutError` as `AbortSignal.timeout` gives
 * (so `isTimeout` tells it); `dispose` stops the timer once the wait is over.
 */
export function timeoutSignal(ms: number, clock: Clock = systemClock): { signal: AbortSignal } & Disposable {
  const controller = new AbortController();
  const timer = clock.after(ms, () =>
    controller.abort(new DOMException(`The wait exceeded ${ms} ms.`, 'TimeoutError')),
  );
  return { signal: controller.signal, dispose: () => timer.dispose() };
}

/**
 * A signal that aborts `ms` from now (a `TimeoutError`, as `timeoutSignal`) or when `also` does. Never
 * `AbortSignal.any([AbortSignal.timeout(ms), …])`: Node holds a timeout signal only weakly, and one that
 * only a combined signal depends on is collected by the next GC and never fires (nodejs/node#57736) — the
 * wait would be unbounded. Here the timer holds its controller. `dispose` stops the timer once the wait is over.
 */
export function deadlineSignal(
  ms: number,
  also?: AbortSignal,
  clock: Clock = systemClock,
): { signal: AbortSignal } & Disposable {
  const timeout = timeoutSignal(ms, clock);
  return also === undefined
    ? timeout
    : { signal: AbortSignal.any([timeout.signal, also]), dispose: () => timeout.dispose() };
}
