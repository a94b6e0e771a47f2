import assert from 'node:assert/strict';
import { events, snapshot, started, turn } from './support/builders';
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

  it('turns slower when the system asks for reduced motion', async () => {
    const page = await chat.open();
    await page.page.emulateMedia({ reducedMotion: 'reduce' });
    await page.host(snapshot());
    await page.host(events(started(turn('t1'))));
    const spinner = await workingSpinner(page);
    assert.equal(spinner.duration, '3s');
    assert.equal(spinner.timing, 'steps(30)');
  });
});
