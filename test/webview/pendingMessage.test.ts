import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { added, events, message, snapshot, started, status, turn } from './support/builders';
import { useChatPages } from './support/suite';

const OUT = resolve(__dirname, '../../test-results');
const FATAL =
  'Error: --dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons';

/**
 * The pending status as it is `ms` after the message was sent: its animations (the status's delayed showing
 * and its spinner's) paused and set to that time, as an injected clock would.
 */
function pendingStateAt(page: Page, ms: number): Promise<{ visibility: string; spinnerDelay: unknown }> {
  return page.evaluate((at) => {
    const state = document.querySelector('.pending-state');
    if (!state) {
      throw new Error('no pending state');
    }
    const spinner = state.querySelector('.codicon-modifier-spin');
    const shown = state
      .getAnimations()
      .find((a) => (a as CSSAnimation).animationName === 'pending-state-shown');
    if (!shown) {
      throw new Error('the status is not delayed');
    }
    shown.pause();
    shown.currentTime = at;
    return {
      visibility: getComputedStyle(state).visibility,
      spinnerDelay: spinner?.getAnimations()[0]?.effect?.getTiming().delay,
    };
  }, ms);
}

describe('webview: a message waiting for its agent (pending, then a card and back in the composer)', () => {
  const chat = useChatPages();

  it('shows the message at once, marked pending, with the agent’s words as they arrive', async () => {
    const page = await chat.openShowing(
      snapshot({}, { status: { state: 'starting', agentName: 'Claude Code' } }),
      { width: 420, height: 640 },
    );
    const input = await page.send('Fix the failing test');
    const pending = page.page.locator('.transcript article.entry-user.pending');
    await pending.waitFor();
    assert.equal(await pending.locator('.user-bubble').innerText(), 'Fix the failing test');
    // What it waits for is said once the wait lasts 400 ms: a send taken up sooner shows no status.
    assert.deepEqual(await pendingStateAt(page.page, 399), { visibility: 'hidden', spinnerDelay: 400 });
    assert.deepEqual(await pendingStateAt(page.page, 400), { visibility: 'visible', spinnerDelay: 400 });
    assert.match(await pending.locator('.pending-state').innerText(), /Waiting for Claude Code to start…/);
    assert.equal(await input.inputValue(), '');
    // The first message stands alone: the empty chat's tips go while it waits.
    assert.equal(await page.page.locator('.transcript .empty-state').isVisible(), false);

    await page.host(status({ state: 'ready', agentName: 'Claude Code', said: FATAL }));
    await page.frame();
    assert.match(await pending.locator('.pending-state').innerText(), /Sending to Claude Code…/);
    assert.equal(await pending.locator('.pending-said').innerText(), `Claude Code said: ${FATAL}`);
    await mkdir(OUT, { recursive: true });
    await page.page.screenshot({ path: `${OUT}/pending-message.png` });

    // The turn starts: the message is the turn's now, and the pending copy goes.
    await page.host(events(started(turn('t1')), added(message('user', 'e1', 'Fix the failing test'))));
    await page.frame();
    assert.equal(await pending.count(), 0);
    assert.equal(await page.page.locator('article.entry-user').count(), 1);
    page.assertClean();
  });

  it('keeps the send pending through a snapshot of its own chat (the message is never dropped)', async () => {
    const page = await chat.openShowing(snapshot());
    const input = await page.send('hello');
    // A settings change sends every view a fresh snapshot while the message waits for its turn.
    await page.host(snapshot());
    await page.frame();
    assert.equal(await page.page.locator('article.entry-user.pending').count(), 1, 'still pending');
    await page.host(
      status({ state: 'error', agentName: 'Copilot CLI', error: { kind: 'timeout', message: 'No answer.' } }),
    );
    await page.frame();
    assert.equal(await input.inputValue(), 'hello', 'back in the composer');
    assert.equal(await page.page.locator('article.entry-user.pending').count(), 0);
  });

  it('keeps a message typed before the first snapshot, and sends it (the view was not ready)', async () => {
    const page = await chat.open(); // no snapshot yet: the host has not answered the view's ready
    const input = await page.send('typed early');
    assert.deepEqual(await page.postedOf('send'), [{ type: 'send', text: 'typed early' }]);
    await page.host(snapshot());
    await page.frame();
    assert.equal(
      await page.page.locator('article.entry-user.pending').count(),
      1,
      'the first snapshot keeps it',
    );
    await page.host(
      status({ state: 'error', agentName: 'Copilot CLI', error: { kind: 'internal', message: 'x' } }),
    );
    await page.frame();
    assert.equal(await input.inputValue(), 'typed early');
  });

  it('at a deadline: one card with the agent’s words, Sign in, Retry, Check Agents, Show Agent Log', async () => {
    const page = await chat.openShowing(
      snapshot({}, { status: { state: 'ready', agentName: 'Claude Code' } }),
      { width: 420, height: 700 },
    );
    const input = await page.send('Fix the failing test');
    await page.host(
      status({
        state: 'error',
        agentName: 'Claude Code',
        error: {
          kind: 'timeout',
          message: 'Claude Code did not answer session/new (opening a session for the chat) within 20 s.',
          stderrTail: [FATAL],
        },
        authMethods: [
          { id: 'claude-login', name: 'Log in with Claude Code', description: 'Run `claude /login`' },
        ],
      }),
    );
    await page.frame();
    assert.equal(await input.inputValue(), 'Fix the failing test', 'the message is back in the composer');
    const card = page.page.locator('.status-banner .agent-error');
    assert.equal(await card.count(), 1);
    assert.equal(await page.page.locator('.alerts .alert').count(), 0, 'no second, red alert');
    assert.match(await card.locator('.error-title').innerText(), /Claude Code did not answer/);
    await card.locator('.stderr .disclosure-header').click();
    assert.equal(await card.locator('.stderr-tail').innerText(), FATAL);
    const buttons = card.locator('.error-actions vscode-button');
    assert.deepEqual(await buttons.allTextContents(), ['Sign in', 'Retry', 'Check Agents', 'Show Agent Log']);
    await mkdir(OUT, { recursive: true });
    await page.page.screenshot({ path: `${OUT}/session-deadline-card.png` });

    await page.clearPosted();
    await card.locator('vscode-button', { hasText: 'Show Agent Log' }).click();
    await card.locator('vscode-button', { hasText: 'Check Agents' }).click();
    await card.locator('vscode-button', { hasText: 'Sign in' }).click();
    assert.deepEqual(await page.posted(), [
      { type: 'show_log' },
      { type: 'check_agents' },
      { type: 'authenticate', methodId: 'claude-login' },
    ]);
    await page.clearPosted();
    await card.locator('vscode-button', { hasText: 'Retry' }).click();
    assert.deepEqual(
      await page.posted(),
      [{ type: 'send', text: 'Fix the failing test' }],
      'Retry sends it again',
    );
    page.assertClean();
  });
});
