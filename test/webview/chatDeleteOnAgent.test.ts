import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import type { ChatSummary } from '../../src/protocol';
import { CHAT_ID, chatSummary, message, snapshot } from './support/builders';
import { openChatList } from './support/chatList';
import { useChatPages } from './support/suite';

const OUT = resolve(__dirname, '../../test-results');
const NOW = Date.now();
const CHATS: ChatSummary[] = [
  chatSummary({ updatedAt: NOW, deletableOnAgent: true }),
  chatSummary({
    chatId: 'chat-2',
    title: 'Write docs',
    agentId: 'demo',
    agentLabel: 'Demo agent (offline)',
    updatedAt: NOW - 3_600_000,
  }),
];

describe('webview: deleting a chat on the agent side too', () => {
  const chat = useChatPages();

  for (const theme of ['dark', 'light'] as const) {
    it(`offers "Also on agent" only where the agent can delete its session (${theme})`, async () => {
      const page = await chat.open({ theme, width: 420, height: 500 });
      await page.host(snapshot({ entries: [message('user', 'e1', 'hi')] }, { chats: CHATS }));
      await openChatList(page);
      const rows = page.page.locator('.chat-row');

      await rows.nth(1).hover();
      await page.page.getByRole('button', { name: 'Delete Write docs' }).click();
      const confirming = page.page.locator('.chat-row.confirming');
      assert.equal(await confirming.locator('vscode-button', { hasText: 'Also on agent' }).count(), 0);
      await confirming.locator('vscode-button', { hasText: 'Cancel' }).click();

      await rows.nth(0).hover();
      await page.page.getByRole('button', { name: 'Delete Fix the parser' }).click();
      const alsoOnAgent = confirming.locator('vscode-button', { hasText: 'Also on agent' });
      assert.equal(
        await alsoOnAgent.getAttribute('title'),
        "Delete it here and Claude Code's own session too",
      );
      await page.page.screenshot({ path: `${OUT}/chat-delete-on-agent-${theme}.png` });
      // Keyboard: the button takes focus and Enter answers it.
      await alsoOnAgent.focus();
      await page.page.keyboard.press('Enter');
      assert.deepEqual((await page.posted()).at(-1), {
        type: 'delete_chat',
        chatId: CHAT_ID,
        onAgent: true,
      });
    });
  }
});
