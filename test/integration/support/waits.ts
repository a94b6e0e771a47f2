/** Bounded waits for the integration suites: a condition polled until it holds, a promise raced against a deadline. */
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `probe` every 50 ms until it returns something other than undefined/false, and returns that;
 * throws "timed out waiting for <what>" (with the last probe error, if any) after `timeoutMs`.
 */
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) {
        return value;
      }
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const detail = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${detail}`);
    }
    await sleep(50);
  }
}

/** `promise`, or a "timed out" error after `ms`: a turn that never ends fails its test in bounded time. */
export async function settled<T>(what: string, promise: Promise<T>, ms = 60_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms / 1000} s waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
