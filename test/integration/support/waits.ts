/** Bounded waits for the integration suites: a condition polled until it holds, a promise raced against a deadline. */
import { eventually as poll } from '../../support/until';

/** `eventually` with the integration suites' longer default: VS Code's own state can take seconds. */
export function eventually<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  return poll(what, probe, timeoutMs);
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
