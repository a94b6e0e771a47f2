import { strict as assert } from 'node:assert';
import type { ChatSummary, HostMessage } from '../../src/protocol';
import { ViewConnections } from '../../src/chat/viewConnections';
import { ViewSlot } from '../../src/chat/viewSlot';
import { chatListsOf } from './support/chatHarness';

/** A view that records what it was posted. */
function recordingSink(): { post(message: HostMessage): void; readonly got: HostMessage[] } {
  const got: HostMessage[] = [];
  return { got, post: (message) => got.push(message) };
}

const list = (title: string): HostMessage => ({
  type: 'chats',
  chats: [{ chatId: 'c1', title, agentId: 'a', agentLabel: 'A', updatedAt: 1, running: false }],
  activeChatId: 'c1',
});

describe('view connections: states posted whole go only when they changed', () => {
  function readyView(views: ViewConnections, chatId = 'c1') {
    const slot = new ViewSlot();
    slot.chatId = chatId;
    const sink = recordingSink();
    views.attach(sink, slot, () => {});
    views.noteReady({ type: 'ready' }, sink);
    return { slot, sink };
  }

  it('posts an unchanged state once, a changed one again, and keeps keys apart', () => {
    const views = new ViewConnections();
    const { sink } = readyView(views);
    views.postChanged('chats', list('one'));
    views.postChanged('chats', list('one'));
    views.postChanged('other', list('one'));
    views.postChanged('chats', list('two'));
    views.postChanged('chats', list('one'));
    assert.deepEqual(
      sink.got.map((message) => message.type === 'chats' && message.chats[0]?.title),
      ['one', 'one', 'two', 'one'],
    );
  });

  it('posts again after a snapshot or a new ready, which replace what the view held', () => {
    const views = new ViewConnections();
    const { sink } = readyView(views);
    views.postChanged('chats', list('one'));
    // The snapshot carries a list of its own: the view no longer holds 'one' as posted.
    views.post({ type: 'show_chat_list' });
    views.postChanged('chats', list('one'));
    assert.equal(
      sink.got.filter((message) => message.type === 'chats').length,
      1,
      'another message clears nothing',
    );
    views.post({ type: 'snapshot', view: { agents: [], selectedAgentId: 'a', status: { state: 'idle' } } });
    views.postChanged('chats', list('one'));
    views.noteReady({ type: 'ready' }, sink); // the page was rebuilt
    views.postChanged('chats', list('one'));
    assert.equal(sink.got.filter((message) => message.type === 'chats').length, 3);
  });

  it('nothing before ready, and only to the views `to` accepts, each by what it holds', () => {
    const views = new ViewConnections();
    const first = readyView(views, 'c1');
    const second = readyView(views, 'c2');
    const late = recordingSink();
    views.attach(late, new ViewSlot(), () => {});
    views.postChanged('chats', list('one'), (slot) => slot.chatId === 'c1');
    views.postChanged('chats', list('one'));
    assert.equal(first.sink.got.length, 1);
    assert.equal(second.sink.got.length, 1, 'the second view did not hold it yet');
    assert.equal(late.got.length, 0, 'not ready: nothing');
  });
});

describe('view connections: the chat list, whole or one chat’s change', () => {
  const summary = (chatId: string, updatedAt: number, running = false): ChatSummary => ({
    chatId,
    title: `Chat ${chatId}`,
    agentId: 'a',
    agentLabel: 'A',
    updatedAt,
    running,
  });
  const three = [summary('c1', 3), summary('c2', 2), summary('c3', 1)];

  function readyView(views: ViewConnections) {
    const slot = new ViewSlot();
    slot.chatId = 'c1';
    const sink = recordingSink();
    views.attach(sink, slot, () => {});
    views.noteReady({ type: 'ready' }, sink);
    return sink;
  }

  it('posts the whole list first, then one chat moved or changed as that chat alone, and nothing unchanged', () => {
    const views = new ViewConnections();
    const sink = readyView(views);
    views.postChatList(three, 'c1');
    const touched = [summary('c3', 4, true), summary('c1', 3), summary('c2', 2)];
    views.postChatList(touched, 'c1');
    views.postChatList(touched, 'c1');
    const done = [summary('c3', 5), summary('c1', 3), summary('c2', 2)];
    views.postChatList(done, 'c1');
    assert.deepEqual(
      sink.got.map((message) => message.type),
      ['chats', 'chat_changed', 'chat_changed'],
    );
    assert.deepEqual(sink.got[1], { type: 'chat_changed', chat: touched[0], index: 0 });
    assert.deepEqual(chatListsOf(sink.got).at(-1), done);
  });

  it('posts the whole list when two chats changed, a chat came or went, or the view shows another chat', () => {
    const views = new ViewConnections();
    const sink = readyView(views);
    views.postChatList(three, 'c1');
    const lists = [
      [summary('c1', 3, true), summary('c2', 2, true), summary('c3', 1)],
      [summary('c1', 3, true), summary('c2', 2, true)],
      [summary('c4', 9), summary('c1', 3, true), summary('c2', 2, true)],
    ];
    for (const chats of lists) {
      views.postChatList(chats, 'c1');
    }
    views.postChatList(lists[2]!, 'c2');
    assert.deepEqual(
      sink.got.map((message) => message.type),
      ['chats', 'chats', 'chats', 'chats', 'chats'],
    );
  });

  it('after a snapshot, changes what the snapshot’s list holds; after a new ready, the whole list again', () => {
    const views = new ViewConnections();
    const sink = readyView(views);
    views.post({
      type: 'snapshot',
      view: { agents: [], selectedAgentId: 'a', status: { state: 'idle' }, chats: three },
    });
    const renamed = [summary('c1', 3), { ...summary('c2', 2), title: 'Renamed' }, summary('c3', 1)];
    views.postChatList(renamed, 'c1');
    views.noteReady({ type: 'ready' }, sink); // the page was rebuilt
    views.postChatList(renamed, 'c1');
    assert.deepEqual(
      sink.got.map((message) => message.type),
      ['snapshot', 'chat_changed', 'chats'],
    );
    assert.deepEqual(chatListsOf(sink.got.slice(0, 2)).at(-1), renamed);
  });
});
