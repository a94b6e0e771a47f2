import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import type { AgentSession, ChatSummary } from '../../../src/protocol';
import { CHAT_ID, chatSummary, message, snapshot } from '../support/builders';
import { openChatList } from '../support/chatList';
import { saveForDocs } from '../support/docs';
import { useChatPages } from '../support/suite';

const OUT = resolve(__dirname, '../../../test-results');
const NOW = Date.now();
const CHATS: ChatSummary[] = [chatSummary({ updatedAt: NOW })];
const session = (i: number, extra: Partial<AgentSession> = {}): AgentSession => ({
  sessionId: `s-${i}`,
  title: `Session ${i} from the CLI`,
  cwd: `/home/me/projects/app-${i}`,
  updatedAt: NOW - i * 3_600_000,
  ...extra,
});

describe('webview: agent sessions in the chat list', () => {
  const chat = useChatPages();

  for (const theme of ['dark', 'light'] as const) {
    it(`lists them per agent, pages with More, and opens one (${theme})`, async () => {
      const page = await chat.open({ theme, width: 420, height: 640 });
      await page.host(snapshot({ entries: [message('user', 'e1', 'hi')] }, { chats: CHATS }));
      await page.clearPosted();
      await openChatList(page);
      assert.deepEqual(await page.postedOf('list_agent_sessions'), [{ type: 'list_agent_sessions' }]);

      // Our chat's own session is not listed again: the chat is, above (one conversation, one row).
      await page.host({
        type: 'agent_sessions',
        groups: [
          {
            agentId: 'claude',
            agentLabel: 'Claude Code',
            sessions: [session(0, { chatId: CHAT_ID, title: 'old title' }), session(1), session(2)],
            nextCursor: 'c-2',
          },
          { agentId: 'gemini', agentLabel: 'Gemini CLI', sessions: [], error: 'Rate limited' },
        ],
      });
      const claude = page.page.getByRole('list', { name: 'Claude Code sessions' });
      const titles = await claude.locator('.chat-title').allTextContents();
      assert.deepEqual(titles, ['Session 1 from the CLI', 'Session 2 from the CLI']);
      assert.equal(
        await page.page.locator('#chat-list .chat-title', { hasText: 'Fix the parser' }).count(),
        1,
      );
      assert.equal(await page.page.locator('#chat-list', { hasText: 'old title' }).count(), 0);
      assert.equal(await claude.locator('.chat-meta').first().textContent(), 'app-1 · 1 h ago');
      assert.match((await page.page.locator('.agent-sessions-error').textContent()) ?? '', /Rate limited/);

      // By keyboard: focus stays on the button while its page comes, then moves to the first new session.
      const more = page.page.getByRole('button', { name: 'More sessions' });
      await more.focus();
      await page.page.keyboard.press('Enter');
      assert.equal(await page.page.evaluate(() => document.activeElement?.textContent), 'Loading…');
      assert.deepEqual((await page.posted()).at(-1), {
        type: 'list_agent_sessions',
        agentId: 'claude',
        cursor: 'c-2',
      });
      await page.host({
        type: 'agent_sessions',
        groups: [
          {
            agentId: 'claude',
            agentLabel: 'Claude Code',
            sessions: [session(2), session(3)],
            append: true,
          },
        ],
      });
      assert.equal(await claude.locator('.chat-title').count(), 3, 'a repeated session is shown once');
      assert.equal(
        await page.page.evaluate(() => document.activeElement?.querySelector('.chat-title')?.textContent),
        'Session 3 from the CLI',
        'focus is on the first session of the new page, not on the page',
      );
      assert.equal(await page.page.getByRole('button', { name: 'More sessions' }).count(), 0);
      await page.page.screenshot({ path: `${OUT}/agent-sessions-${theme}.png` });
      if (theme === 'dark') {
        await saveForDocs(`${OUT}/agent-sessions-${theme}.png`, 'agent-sessions.png');
      }

      // Keyboard: a row is a button; Enter opens the session and the list closes.
      await claude.getByRole('button', { name: /Session 3 from the CLI/ }).focus();
      await page.page.keyboard.press('Enter');
      assert.deepEqual((await page.posted()).at(-1), {
        type: 'open_agent_session',
        agentId: 'claude',
        sessionId: 's-3',
      });
      assert.equal(await page.page.locator('#chat-list').isHidden(), true);

      // Opened, it is a chat: reopened before the agent's next list comes, the list no longer shows it.
      await openChatList(page);
      assert.deepEqual(await claude.locator('.chat-title').allTextContents(), [
        'Session 1 from the CLI',
        'Session 2 from the CLI',
      ]);
    });
  }

  it('stays hidden while no agent lists sessions, and bounds a hostile page', async () => {
    const page = await chat.open({ width: 420, height: 500 });
    await page.host(snapshot({ entries: [] }, { chats: CHATS }));
    await openChatList(page);
    assert.equal(await page.page.locator('.agent-sessions').isHidden(), true);
    // More than the view keeps is refused by the protocol: the view reports it and shows nothing.
    await page.hostRaw({
      type: 'agent_sessions',
      groups: [
        {
          agentId: 'x',
          agentLabel: 'X',
          sessions: Array.from({ length: 201 }, (_, i) => session(i)),
        },
      ],
    });
    assert.equal(await page.page.locator('.agent-sessions').isHidden(), true);
  });
});
