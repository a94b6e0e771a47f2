import assert from 'node:assert/strict';
import type { HostMessage } from '../../../src/protocol';
import { CHAT_ID, ended, events, snapshot, started, turn } from '../support/builders';
import { useChatPages } from '../support/suite';

function offer(count: number, turnId = 't1'): HostMessage {
  return {
    type: 'problems_offer',
    chatId: CHAT_ID,
    offer: {
      turnId,
      problems: Array.from({ length: count }, (_, index) => ({
        path: 'src/hello.ts',
        line: index + 2,
        severity: index === 0 ? ('error' as const) : ('warning' as const),
        message:
          index === 0 ? "Type 'string' is not assignable to type 'number'." : `Unused variable v${index}.`,
        source: 'ts',
      })),
    },
  };
}

describe('webview: Fix N new problems', () => {
  const chat = useChatPages();

  it('shows the offer with its problems, sends fix_problems once, and opens a problem at its line', async () => {
    const page = await chat.openShowing(snapshot());
    const region = page.page.getByRole('region', { name: 'New problems' });
    assert.equal(await region.isVisible(), false, 'hidden without an offer');
    await page.host(offer(7));
    assert.equal(await region.isVisible(), true);
    assert.equal(await region.locator('.problems-title').textContent(), 'New in the changed files');
    const rows = region.locator('.problem-row');
    assert.equal(await rows.count(), 5, 'the first five are listed');
    assert.equal(await region.locator('.problem-more').textContent(), 'and 2 more');
    assert.equal(await rows.first().locator('.problem-path').textContent(), 'src/hello.ts:2');
    assert.equal(
      await rows.first().locator('.problem-message').textContent(),
      "Type 'string' is not assignable to type 'number'.",
    );
    await rows.nth(1).locator('.problem-path').click();
    assert.deepEqual(await page.postedOf('open_file'), [
      { type: 'open_file', path: 'src/hello.ts', line: 3 },
    ]);
    const fix = region.locator('vscode-button', { hasText: 'Fix 7 new problems' });
    await fix.click();
    // A second click on the now disabled button (Playwright would wait for it to be enabled).
    await fix.dispatchEvent('click');
    assert.deepEqual(await page.postedOf('fix_problems'), [{ type: 'fix_problems', turnId: 't1' }]);
    page.assertClean();
  });

  it('goes away when the host withdraws it, hides while a turn runs, and can be dismissed', async () => {
    const page = await chat.openShowing(
      snapshot({}, { problemsOffer: (offer(1) as Extract<HostMessage, { type: 'problems_offer' }>).offer }),
    );
    const region = page.page.getByRole('region', { name: 'New problems' });
    assert.equal(await region.isVisible(), true, 'a snapshot carries the offer');
    assert.equal(
      await region.locator('vscode-button', { hasText: 'Fix 1 new problem' }).textContent(),
      'Fix 1 new problem',
    );
    await page.host(events(started(turn('t2'))));
    assert.equal(await region.isVisible(), false, 'hidden while a turn runs');
    await page.host(events(ended(turn('t2', { status: 'completed', stopReason: 'end_turn' }))));
    assert.equal(await region.isVisible(), true);
    await region.locator('vscode-button', { hasText: 'Dismiss' }).click();
    assert.deepEqual(await page.postedOf('dismiss_problems'), [{ type: 'dismiss_problems' }]);
    await page.host({ type: 'problems_offer', chatId: CHAT_ID });
    assert.equal(await region.isVisible(), false);
    await page.host({ ...(offer(2) as object), chatId: 'another-chat' } as HostMessage);
    assert.equal(await region.isVisible(), false, "another chat's offer is not shown");
    page.assertClean();
  });

  it('looks right (screenshot)', async () => {
    const page = await chat.openShowing(snapshot(), { width: 420, height: 500 });
    await page.host(offer(3));
    await page.screenshot('problems-offer');
    page.assertClean();
  });
});
