import assert from 'node:assert/strict';
import { events, snapshot, started, status, turn } from './support/builders';
import { useChatPages } from './support/suite';

/** The running turn's spinner: its computed animation timing. */
async function workingSpinner(page: Awaited<ReturnType<ReturnType<typeof useChatPages>['open']>>) {
  return page.page.locator('[data-turn-id="t1"] .turn-working .codicon-loading').evaluate((icon) => {
    const style = getComputedStyle(icon);
    return {
      name: style.animationName,
      duration: style.animationDuration,
      timing: style.animationTimingFunction,
      playing: icon.getAnimations().map((animation) => animation.playState),
    };
  });
}

describe('webview: spinners', () => {
  const chat = useChatPages();

  // A smoothly eased spinner asks the renderer's main thread for every frame while an agent thinks in
  // silence; stepped at 20 a second it costs a fraction of that (the bench's idle-with-a-running-turn row).
  it('turns in 30 steps of 1.5 s, not on every frame', async () => {
    const page = await chat.open();
    await page.host(snapshot());
    await page.host(events(started(turn('t1'))));
    assert.deepEqual(await workingSpinner(page), {
      name: 'codicon-spin',
      duration: '1.5s',
      timing: 'steps(30)',
      playing: ['running'],
    });
  });

  // Reduced motion asks for no movement, not slower movement: the spinner stands still beside its
  // "Working…" text (VS Code's own style only slowed it down).
  it('stands still when the system asks for reduced motion', async () => {
    const page = await chat.open();
    await page.page.emulateMedia({ reducedMotion: 'reduce' });
    await page.host(snapshot());
    await page.host(events(started(turn('t1'))));
    const spinner = await workingSpinner(page);
    assert.equal(spinner.name, 'none');
    assert.deepEqual(spinner.playing, []);
    assert.match(
      (await page.page.locator('[data-turn-id="t1"] .turn-working').textContent()) ?? '',
      /Working/,
      'the text still says the agent works',
    );
    // The agent's starting ring too: a still arc.
    await page.host(status({ state: 'starting', agentName: 'Copilot CLI' }));
    const ring = page.page.locator('.progress-ring circle');
    assert.deepEqual(await ring.evaluate((circle) => circle.getAnimations().length), 0);
  });
});
