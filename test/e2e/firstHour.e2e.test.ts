/**
 * The first hour of a new user in the real VS Code, end to end: an agent added from the ACP Registry (served
 * on 127.0.0.1) answers the first message, and after a window reload the same chat answers the second; an
 * agent that never answers `session/new` shows its card — its own stderr line, Retry, Check Agents — within
 * the deadline the setting gives (well before the 20 s default), and the message is back in the box.
 */
import { strict as assert } from 'node:assert';
import type { Frame } from 'playwright-core';
import {
  newChat,
  openChat,
  sendPrompt,
  turn,
  UI_TIMEOUT,
  waitForAgentText,
  waitForTurnStatus,
} from './support/chat';
import {
  addFromEmptyState,
  serveFixtureRegistry,
  waitForEmptyChatWith,
  type FixtureRegistry,
} from './support/fixtureRegistry';
import { useWorkbench } from './support/lifecycle';
import { screenshot } from './support/workbench';

/** What Claude Code's adapter printed, run as root, before it hung on session/new. */
const FATAL =
  'Error: --dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons';
/** The session deadline the user set (`acpAgents.timeouts.sessionSeconds`); the default is 20 s. */
const SESSION_SECONDS = 3;

describe('the first hour (real VS Code)', () => {
  let registry: FixtureRegistry | undefined;
  const chat = useWorkbench(async () => {
    registry = await serveFixtureRegistry([
      { id: 'first-hour', name: 'First agent', description: 'Answers in chunks' },
      {
        id: 'first-hour-hang',
        name: 'Hanging agent',
        description: 'Never answers session/new',
        env: { TEST_AGENT_HANG_SESSION_NEW: FATAL },
      },
    ]);
    return {
      settings: { ...registry.settings, 'acpAgents.timeouts.sessionSeconds': SESSION_SECONDS },
    };
  });

  after(() => registry?.close());

  it('Add Agent… → first message → window reload → the same chat answers the second', async () => {
    const { page } = chat;
    await addFromEmptyState(page, chat.frame, 'First agent');
    await waitForEmptyChatWith(chat.frame, 'First agent');
    const first = await chat.sendPrompt('stream 2');
    await chat.waitForAgentText(first, 'chunk 1 chunk 2');
    await chat.waitForTurnStatus(first, 'completed');
    const chatId = await chat.frame.evaluate(() => document.body.dataset.chatId);

    await page.reload({ waitUntil: 'domcontentloaded', timeout: 60_000 });
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
    // A reload restarts the extension host: in a cold window on a busy machine that took over 30 s.
    chat.frame = await openChat(page, { timeout: 60_000 });
    const frame: Frame = chat.frame;
    await turn(frame, first).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(await frame.evaluate(() => document.body.dataset.chatId), chatId, 'the same chat');

    const second = await sendPrompt(frame, 'stream 3');
    await waitForAgentText(frame, second, 'chunk 1 chunk 2 chunk 3');
    await waitForTurnStatus(frame, second, 'completed');
    assert.equal(await frame.locator('.alerts .alert').count(), 0, 'no error on the way');
    await screenshot(page, 'first-hour-after-reload');
  });

  it('an agent that never answers session/new shows its card within the set deadline; the message comes back', async () => {
    const { page } = chat;
    await newChat(page, chat.frame);
    const frame = chat.frame;
    await addFromEmptyState(page, frame, 'Hanging agent');
    await waitForEmptyChatWith(frame, 'Hanging agent');
    const input = frame.locator('.composer-input');
    await input.click();
    await input.fill('Fix the failing test');
    await input.press('Enter');
    // Shown at once, marked pending, with the agent's own words as they arrive.
    const pending = frame.locator('article.entry-user.pending');
    await pending.waitFor({ state: 'visible', timeout: UI_TIMEOUT });

    // Within the user's 3 s deadline (waited for less than the 20 s default, so the setting is what counts).
    const card = frame.locator('.status-banner .agent-error');
    await card.waitFor({ state: 'visible', timeout: 15_000 });
    await card.locator('.stderr .disclosure-header').click();
    assert.match(await card.locator('.stderr-tail').innerText(), new RegExp(escapeRegExp(FATAL)));
    for (const action of ['Retry', 'Check Agents', 'Show Agent Log']) {
      assert.equal(
        await card.locator('.error-actions vscode-button', { hasText: action }).count(),
        1,
        `the card offers ${action}`,
      );
    }
    // The message is not lost: back in the box, no turn sent, no pending copy left.
    await frame.waitForFunction(
      () =>
        (document.querySelector('.composer-input') as HTMLTextAreaElement | null)?.value ===
        'Fix the failing test',
      undefined,
      { timeout: UI_TIMEOUT },
    );
    assert.equal(await pending.count(), 0);
    assert.equal(await frame.locator('section.turn[data-turn-id]').count(), 0);
    await screenshot(page, 'first-hour-hanging-agent');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
