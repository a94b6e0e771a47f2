import assert from 'node:assert/strict';
import type { ChatSummary } from '../../src/protocol';
import { CHAT_ID, chatSummary, ended, events, message, snapshot, started, turn } from './support/builders';
import { openChatList } from './support/chatList';
import { useChatPages } from './support/suite';

const NOW = Date.now();
const COPILOT = { agentId: 'copilot', agentLabel: 'Copilot CLI' };
const CHATS: ChatSummary[] = [
  chatSummary({ ...COPILOT, updatedAt: NOW, running: true }),
  chatSummary({
    chatId: 'chat-2',
    title: 'Write docs',
    agentId: 'demo',
    agentLabel: 'Demo agent (offline)',
    updatedAt: NOW - 3 * 3_600_000,
  }),
  chatSummary({ ...COPILOT, chatId: 'chat-3', title: 'Old question', updatedAt: NOW - 10 * 86_400_000 }),
];

describe('webview: chats, resume, retry, attachments, edit reviews', () => {
  const chat = useChatPages();

  it('lists chats and switches, renames and deletes them', async () => {
    const page = await chat.openShowing(
      snapshot({ entries: [message('user', 'e1', 'hi')] }, { chats: CHATS }),
    );
    assert.equal(await page.page.locator('.session-title').textContent(), 'Fix the parser');
    // Focus was in the transcript when the view title's Show Chats opened the list: it goes back there.
    await page.page.locator('.transcript').focus();
    await openChatList(page);
    const rows = page.page.locator('.chat-row');
    assert.deepEqual(await rows.locator('.chat-title').allTextContents(), [
      'Fix the parser',
      'Write docs',
      'Old question',
    ]);
    assert.equal(await rows.first().getAttribute('aria-current'), 'true');
    assert.match(
      (await rows.nth(1).locator('.chat-meta').textContent()) ?? '',
      /Demo agent \(offline\) · 3 h ago/,
    );
    assert.equal(await rows.first().locator('.codicon-loading').count(), 1, 'a running chat shows it');

    await rows.nth(1).locator('.chat-open').click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'switch_chat', chatId: 'chat-2' });
    assert.equal(await page.page.locator('.chat-list').isVisible(), false);

    await openChatList(page);
    await rows.nth(2).hover();
    await page.page.getByRole('button', { name: 'Rename Old question' }).click();
    const field = page.page.locator('.chat-rename');
    await field.fill('Parser question');
    await field.press('Enter');
    assert.deepEqual((await page.posted()).at(-1), {
      type: 'rename_chat',
      chatId: 'chat-3',
      title: 'Parser question',
    });

    await rows.nth(2).hover();
    await page.page.getByRole('button', { name: 'Delete Old question' }).click();
    assert.match(await page.page.locator('.chat-row.confirming').innerText(), /Delete “Old question”\?/);
    await page.page.locator('.chat-row.confirming vscode-button', { hasText: 'Delete' }).click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'delete_chat', chatId: 'chat-3' });

    await page.host({ type: 'chats', chats: CHATS.slice(0, 2), activeChatId: CHAT_ID });
    assert.equal(await rows.count(), 2);
    await page.page.keyboard.press('Escape');
    assert.equal(await page.page.locator('.chat-list').isVisible(), false);
    assert.equal(
      await page.page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
      'Conversation',
    );
    // Show Chats again closes an open list; with nothing focused before, focus goes to the message box.
    await page.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await openChatList(page);
    await page.host({ type: 'show_chat_list' });
    assert.equal(await page.page.locator('.chat-list').isVisible(), false);
    assert.equal(await page.page.evaluate(() => document.activeElement?.className), 'composer-input');
  });

  it('offers recent chats in an empty chat', async () => {
    const page = await chat.openShowing(snapshot({}, { chats: CHATS }));
    const recent = page.page.locator('.recent-chat');
    assert.deepEqual(await recent.locator('.chat-title').allTextContents(), ['Write docs', 'Old question']);
    await recent.first().click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'switch_chat', chatId: 'chat-2' });
  });

  it('offers Retry on the latest failed turn only', async () => {
    const page = await chat.openShowing(snapshot({ turns: [turn('t1')] }));
    await page.host(
      events(ended(turn('t1', { status: 'failed', error: { kind: 'internal', message: 'Boom' } }))),
    );
    const retry = page.page.locator('[data-turn-id="t1"] vscode-button', { hasText: 'Retry' });
    await retry.click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'retry' });
    await page.host(events(started(turn('t2'))));
    assert.equal(await retry.count(), 0, 'an older turn loses Retry');
    assert.match(await page.page.locator('[data-turn-id="t1"] .agent-error').innerText(), /Boom/);
  });

  it('shows attached files on the composer and sends them with the message', async () => {
    const page = await chat.openShowing(
      snapshot({}, { attachments: [{ uri: 'file:///w/a.ts', name: 'a.ts' }] }),
    );
    await page.host({ type: 'add_attachment', attachment: { uri: 'file:///w/b.ts', name: 'b.ts' } });
    await page.host({ type: 'add_attachment', attachment: { uri: 'file:///w/c.ts', name: 'c.ts' } });
    const chips = page.page.locator('.composer-chip');
    assert.deepEqual(await chips.locator('.chip-label').allTextContents(), ['a.ts', 'b.ts', 'c.ts']);
    await page.page.getByRole('button', { name: 'Remove b.ts' }).click();
    await chips.nth(2).waitFor({ state: 'detached' }); // re-rendered on the next animation frame
    assert.deepEqual(await chips.locator('.chip-label').allTextContents(), ['a.ts', 'c.ts']);
    assert.deepEqual(await page.postedOf('remove_attachment'), [
      { type: 'remove_attachment', uri: 'file:///w/b.ts' },
    ]);
    await page.send('Review these');
    assert.deepEqual((await page.postedOf('send')).at(-1), {
      type: 'send',
      text: 'Review these',
      attachments: [
        { uri: 'file:///w/a.ts', name: 'a.ts' },
        { uri: 'file:///w/c.ts', name: 'c.ts' },
      ],
    });
    // The send re-renders on the next animation frame: wait for it rather than read the DOM at once.
    await chips.first().waitFor({ state: 'detached', timeout: 5_000 });
    assert.equal(await chips.count(), 0, 'sent attachments leave the composer');
    await page.host({ type: 'error', message: 'The agent is not connected.' });
    assert.deepEqual(
      await chips.locator('.chip-label').allTextContents(),
      ['a.ts', 'c.ts'],
      'and come back if sending failed',
    );
  });

  it('lists edits to review with Keep and Undo', async () => {
    const page = await chat.openShowing(
      snapshot(
        {},
        {
          editReviews: [
            { id: 'r1', path: '/w/src/a.ts', isNew: false },
            { id: 'r2', path: '/w/src/new.ts', isNew: true },
          ],
        },
      ),
    );
    const reviews = page.page.locator('.reviews');
    assert.equal(await reviews.locator('.reviews-title').textContent(), '2 edits to review');
    await page.page.getByRole('button', { name: 'Undo the edit to /w/src/a.ts' }).click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'answer_review', id: 'r1', decision: 'undo' });
    await reviews.locator('vscode-button', { hasText: 'Keep all' }).click();
    assert.deepEqual((await page.postedOf('answer_review')).slice(1), [
      { type: 'answer_review', id: 'r2', decision: 'keep' },
    ]);
    await reviews.locator('.review-path').first().click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'open_file', path: '/w/src/a.ts' });
    await page.host({ type: 'edit_reviews', reviews: [] });
    assert.equal(await reviews.isVisible(), false);
  });
});
