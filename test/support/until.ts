import { setTimeout as sleep } from 'node:timers/promises';

/** How often a wait looks again. */
const POLL_MS = 10;

/**
 * Polls `probe` until it returns something other than undefined/false, and returns that; fails, saying
 * what it waited for (and the probe's last error, if it threw), after `ms`. For conditions that have no
 * event of their own to wait on: a process gone (not our child), a file another process wrote, a view
 * message posted, VS Code's state. The one polling wait of the test suites.
 */
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 8000,
): Promise<T> {
  const deadline = Date.now() + ms;
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
      throw new Error(`timed out after ${ms} ms waiting for ${what}${detail}`);
    }
    await sleep(POLL_MS);
  }
}

/** Waits until `predicate` holds (`eventually` for a yes/no condition). */
export async function until(
  predicate: () => boolean | Promise<boolean>,
  what = 'condition',
  ms = 8000,
): Promise<void> {
  await eventually(what, predicate, ms);
}
