import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

/**
 * Scrolls by `step` until `done`. Each time, an entry in view must move on screen by exactly the
 * scroll (nothing above it grew or shrank; with scroll anchoring on, what the browser corrected
 * counts too), and the built turns stay few. Returns the heights of the content seen.
 */
export async function walk(
  page: Page,
  step: number,
  done: (scrollTop: number, max: number) => boolean,
): Promise<{ steps: number; maxBuilt: number; heights: Set<number> }> {
  let maxBuilt = 0;
  const heights = new Set<number>();
  for (let steps = 0; steps < 2000; steps++) {
    const result = await page.locator('.transcript').evaluate(async (log, step) => {
      const view = log.getBoundingClientRect();
      const anchor = Array.from(log.querySelectorAll<HTMLElement>('[data-entry-id]')).find((entry) => {
        const box = entry.getBoundingClientRect();
        return box.top >= view.top && box.top < view.bottom;
      });
      const before = { scrollTop: log.scrollTop, top: anchor?.getBoundingClientRect().top ?? NaN };
      const max = log.scrollHeight - log.clientHeight;
      const clamped = before.scrollTop + step < 0 || before.scrollTop + step > max;
      log.scrollTop += step;
      for (let i = 0; i < 2; i++) {
        await new Promise((done) => requestAnimationFrame(done));
      }
      return {
        id: anchor?.dataset.entryId,
        // On screen, the anchor moves up by what the user scrolled.
        shifted: clamped ? 0 : (anchor?.getBoundingClientRect().top ?? NaN) - (before.top - step),
        scrollTop: log.scrollTop,
        max: log.scrollHeight - log.clientHeight,
        built: log.querySelectorAll('section.turn:not(.turn-deferred)').length,
      };
    }, step);
    assert.ok(result.id !== undefined, `an entry is in view at step ${steps}`);
    assert.equal(result.shifted, 0, `entry ${result.id} kept its place to the pixel at step ${steps}`);
    maxBuilt = Math.max(maxBuilt, result.built);
    heights.add(result.max);
    if (done(result.scrollTop, result.max)) {
      return { steps, maxBuilt, heights };
    }
  }
  throw new Error('the walk did not end');
}

/** Waits for the page's next animation frame. */
export const frame = (page: Page) =>
  page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done(undefined))));

/** The ids of the entries built now, in document order. */
export const builtIds = (page: Page) =>
  page
    .locator('[data-entry-id]')
    .evaluateAll((list) => list.map((entry) => entry.getAttribute('data-entry-id') ?? ''));

/**
 * Scrolls by `step` px at a time until `done` says so; checks the built entries are in order each frame. After
 * each step it reads the built entries once a frame until a frame builds nothing more: the page builds what
 * came near view within a budget a frame (LazyTurns), so a slow frame leaves some for the next ones, and a
 * next step taken before them would pass them by unseen.
 */
export async function scrollUntil(
  page: Page,
  step: number,
  order: Map<string, number>,
  seen: Set<string>,
  done: (ids: string[], seen: Set<string>) => boolean,
): Promise<void> {
  const log = page.locator('.transcript');
  for (let i = 0; i < 600; i++) {
    await log.evaluate((element, by) => (element.scrollTop += by), step);
    const ids = await builtWhenSettled(page, order, seen);
    if (done(ids, seen)) {
      return;
    }
  }
  assert.fail('scrolled 600 steps without getting there');
}

/** Reads the built entries once a frame until two frames agree (at most 60), each read in order and seen. */
async function builtWhenSettled(
  page: Page,
  order: Map<string, number>,
  seen: Set<string>,
): Promise<string[]> {
  let last: string[] | undefined;
  for (let frames = 0; frames < 60; frames++) {
    await frame(page);
    // Read once a frame, and the caller decides on what was read: nothing is built between the two.
    const ids = await builtIds(page);
    const indexes = ids.map((id) => order.get(id) ?? -1);
    assert.deepEqual(
      indexes,
      [...indexes].sort((a, b) => a - b),
      'built entries are in the chat order',
    );
    ids.forEach((id) => seen.add(id));
    if (last !== undefined && last.join('\n') === ids.join('\n')) {
      return ids;
    }
    last = ids;
  }
  assert.fail('the page went on building for 60 frames after a step');
}
