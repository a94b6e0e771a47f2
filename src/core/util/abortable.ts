/**
 * Settles as `work` does, or rejects with the signal's reason once `signal` aborts — whichever comes
 * first. With `AbortSignal.timeout(ms)` (or `AbortSignal.any` of several) it is the one way a wait is
 * bounded here. The work itself goes on: the caller stops it if it can.
 */
export function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

/** Whether `error` is the reason an `AbortSignal.timeout` gave (a `TimeoutError` DOMException). */
export function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError';
}
