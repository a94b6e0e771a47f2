/** How often `until` looks again. */
const POLL_MS = 10;

/**
 * Waits until `predicate` holds, looking again every few milliseconds; fails, saying what it waited
 * for, after `ms`. For conditions that have no event of their own to wait on: a process gone (not our
 * child), a file another process wrote, a view message posted. The one polling wait of the test suites.
 */
export async function until(
  predicate: () => boolean | Promise<boolean>,
  what = 'condition',
  ms = 8000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > deadline) {
      throw new Error(`${what} not reached in ${ms} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
