import type { Page } from 'playwright-core';

/** Where the VS Code stub keeps the webview's state (each write is a message to VS Code there). */
const STATE_KEY = 'vscode-webview-state';
/** Where the counts are kept: beside the state, so they survive the page's reloads. */
const COUNTS_KEY = 'test-state-writes';

export interface StateWrites {
  /** Every write of the view's saved state. */
  readonly writes: number;
  /** Writes of exactly the state already saved. */
  readonly repeats: number;
}

/**
 * Counts the page's writes of its saved state from its next load on, across reloads: pass as `beforeLoad`
 * when opening the page, and read the counts with `stateWrites`.
 */
export async function countStateWrites(page: Page): Promise<void> {
  await page.addInitScript(
    ([stateKey, countsKey]) => {
      const setItem = Storage.prototype.setItem;
      Storage.prototype.setItem = function (key: string, value: string) {
        if (key === stateKey) {
          const counts = JSON.parse(this.getItem(countsKey) ?? '{"writes":0,"repeats":0}');
          counts.writes++;
          counts.repeats += this.getItem(key) === value ? 1 : 0;
          setItem.call(this, countsKey, JSON.stringify(counts));
        }
        setItem.call(this, key, value);
      };
    },
    [STATE_KEY, COUNTS_KEY] as const,
  );
}

/** The counts `countStateWrites` has kept so far. */
export function stateWrites(page: Page): Promise<StateWrites> {
  return page.evaluate(
    (countsKey) => JSON.parse(sessionStorage.getItem(countsKey) ?? '{"writes":0,"repeats":0}') as StateWrites,
    COUNTS_KEY,
  );
}
