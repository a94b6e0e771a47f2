import { strict as assert } from 'node:assert';
import type { ChatSummary, HostMessage } from '../../src/protocol';
import { ShownChatTitle } from '../../src/vscode/shownChatTitle';

const summary = (chatId: string, title: string, extra: Partial<ChatSummary> = {}): ChatSummary => ({
  chatId,
  title,
  agentId: 'a',
  agentLabel: 'A',
  updatedAt: 1,
  running: false,
  ...extra,
});

/** A tab's or the sidebar's title follows its chat through the snapshot, the whole list and one chat's change. */
describe('the title of the chat a view shows', () => {
  it('follows the shown chat through one chat’s change, and ignores another chat’s', () => {
    const titles = new ShownChatTitle('ACP Chat');
    const snapshot: HostMessage = {
      type: 'snapshot',
      view: {
        agents: [],
        status: { state: 'idle' },
        chat: { chatId: 'c2', agentId: 'a', thread: { entries: [], turns: [], state: {} } } as never,
        chats: [summary('c1', 'Other'), summary('c2', '')],
      },
    };
    assert.equal(titles.of(snapshot), 'ACP Chat', 'no title yet');
    const asked = summary('c2', 'asked in the tab', { activity: 'running' });
    assert.equal(titles.of({ type: 'chat_changed', chat: asked, index: 0 }), '◌ asked in the tab');
    assert.equal(titles.of({ type: 'chat_changed', chat: summary('c1', 'Renamed'), index: 1 }), undefined);
    const list: HostMessage = { type: 'chats', chats: [summary('c1', 'Other')], activeChatId: 'c1' };
    assert.equal(titles.of(list), 'Other', 'the whole list names the view’s chat');
    assert.equal(titles.of({ type: 'chat_changed', chat: summary('c1', 'Renamed'), index: 0 }), 'Renamed');
  });
});
