import assert from 'node:assert/strict';
import { ended, events, sessionState, snapshot, toolCall, turn } from './support/builders';
import { useChatPages } from './support/suite';

const PLAN = sessionState({
  plan: [
    { content: 'Read the tests', priority: 'high', status: 'completed' },
    { content: 'Fix the parser', priority: 'high', status: 'in_progress' },
  ],
});

describe('webview: a turn that ended leaves no spinner turning', () => {
  const chat = useChatPages();

  it('a tool call and a plan step left in progress show as not finished once the turn ends', async () => {
    const page = await chat.open();
    await page.host(
      snapshot({
        entries: [toolCall('e1', { status: 'in_progress' })],
        turns: [turn('t1')],
        state: PLAN,
      }),
    );
    const toolStatus = page.page.locator('.tool-status');
    const step = page.page.locator('.plan-item').nth(1).locator('.codicon');
    assert.equal(await toolStatus.locator('.codicon-modifier-spin').count(), 1, 'spins while it runs');
    assert.equal(await step.getAttribute('aria-label'), 'In progress');

    await page.host(events(ended(turn('t1', { status: 'cancelled' }))));
    await page.frame();
    assert.equal(await page.page.locator('.codicon-modifier-spin').count(), 0, 'nothing spins');
    assert.equal(await toolStatus.getAttribute('aria-label'), 'Did not finish (its turn ended)');
    assert.equal(await step.getAttribute('aria-label'), 'Not finished (the turn ended)');
    page.assertClean();
  });

  it('after a reload, history with an unfinished step shows it ended', async () => {
    const page = await chat.open();
    await page.host(
      snapshot({
        entries: [toolCall('e1', { status: 'pending' })],
        turns: [turn('t1', { status: 'completed' })],
        state: PLAN,
      }),
    );
    await page.frame();
    assert.equal(await page.page.locator('.codicon-modifier-spin').count(), 0, 'nothing spins');
    assert.equal(
      await page.page.locator('.tool-status').getAttribute('aria-label'),
      'Did not finish (its turn ended)',
    );
    page.assertClean();
  });
});
