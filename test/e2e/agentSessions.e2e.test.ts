/**
 * The agent's own sessions and Edit and resend in a real VS Code: the demo agent starts with sessions it
 * "already had" (listed two per page); the chat list shows them, "More sessions" pages on, opening one
 * loads its history into a chat; editing an earlier message there forks the chat, and the fork is listed
 * under its origin.
 */
import { strict as assert } from 'node:assert';
import {
  agentText,
  collapse,
  sendPrompt,
  showChats,
  UI_TIMEOUT,
  viewTitle,
  waitForTurnStatus,
} from './support/chat';
import { useWorkbench } from './support/lifecycle';
import { screenshot } from './support/workbench';

describe('agent sessions and edit and resend', () => {
  const chat = useWorkbench({
    env: { TEST_AGENT_SEED_SESSIONS: '3', TEST_AGENT_LIST_PAGE_SIZE: '2' },
    newChatEachTest: true,
  });

  it('opens one of the agent’s sessions with its history, then forks it at an earlier message', async () => {
    const { frame, page } = chat;
    // The agent runs once the chat has talked to it.
    const hello = await sendPrompt(frame, 'hello');
    await waitForTurnStatus(frame, hello, 'completed');

    await showChats(page, frame);
    const sessions = frame.locator('.agent-sessions');
    // Two per page, our own chats' sessions (newest) first — those are not listed again, their chats are —
    // then the seeded ones, a page at a time with "More sessions".
    await sessions.locator('.agent-sessions-group').first().waitFor({ timeout: UI_TIMEOUT });
    let pages = 1;
    while ((await sessions.getByText('Seeded session 3').count()) === 0) {
      assert.ok(pages < 5, 'the seeded sessions come within a few pages');
      await sessions.getByRole('button', { name: 'More sessions' }).click();
      await sessions.locator('.agent-sessions-more[aria-disabled="true"]').waitFor({
        state: 'detached',
        timeout: UI_TIMEOUT,
      });
      pages++;
    }
    assert.ok(pages >= 2, 'paged');
    assert.equal(
      await sessions.getByRole('button', { name: 'More sessions' }).count(),
      0,
      'no page after the last',
    );
    await screenshot(page, 'agent-sessions-e2e');
    await sessions.getByRole('button', { name: /Seeded session 2/ }).click();

    // The view's title names the chat it shows.
    const title = viewTitle(page);
    await title.filter({ hasText: /: Seeded session 2$/ }).waitFor({ timeout: UI_TIMEOUT });
    const users = frame.locator('article.entry-user');
    await users.nth(1).waitFor({ timeout: UI_TIMEOUT });
    assert.deepEqual((await users.locator('.markdown').allTextContents()).map(collapse), [
      'First question of session 2',
      'Second question of session 2',
    ]);
    assert.match(
      collapse(await frame.locator('article.entry-agent').last().innerText()),
      /Second answer of session 2\./,
    );

    // Edit the second question: it comes back in the composer, and the send forks the chat there.
    const origin = await frame.evaluate(() => document.body.dataset.chatId);
    await users.nth(1).hover();
    await users.nth(1).getByRole('button', { name: 'Edit and resend' }).click();
    const input = frame.locator('.composer-input');
    assert.equal(await input.inputValue(), 'Second question of session 2');
    await input.fill('A better second question');
    await input.press('Enter');
    await frame.waitForFunction((before) => document.body.dataset.chatId !== before, origin, {
      timeout: UI_TIMEOUT,
    });
    await title.filter({ hasText: /: Fork of Seeded session 2$/ }).waitFor({ timeout: UI_TIMEOUT });
    const turnId = await frame.locator('section.turn[data-turn-id]').last().getAttribute('data-turn-id');
    assert.ok(turnId);
    await waitForTurnStatus(frame, turnId, 'completed');
    // The new session was given the transcript up to the edited message.
    assert.match(
      await agentText(frame, turnId),
      /^You said: A better second question resource acp-agents:\/transcripts\/[\w-]+\.md \(\d+ chars\)$/,
    );
    assert.deepEqual((await users.locator('.markdown').allTextContents()).map(collapse), [
      'First question of session 2',
      'A better second question',
    ]);

    await showChats(page, frame);
    const rows = frame.locator('.chat-list > .chat-list-items .chat-title');
    // The chat list shows each conversation once: none of its chats again under "Agent sessions".
    const chatTitles = await rows.allTextContents();
    const sessionTitles = await sessions.locator('.chat-title').allTextContents();
    assert.deepEqual(
      sessionTitles.filter((title) => chatTitles.includes(title)),
      [],
      `listed twice: ${sessionTitles.join(', ')}`,
    );
    const names = await rows.allTextContents();
    const at = names.indexOf('Seeded session 2');
    assert.ok(at >= 0, `the origin is listed: ${names.join(', ')}`);
    assert.equal(names[at + 1], 'Fork of Seeded session 2', 'the fork sits under its origin');
    await screenshot(page, 'edit-resend-e2e');
    await page.keyboard.press('Escape');
  });
});
