import { strict as assert } from 'node:assert';
import type { HostMessage } from '../../src/protocol';
import { ViewConnections } from '../../src/chat/viewConnections';
import { ViewSlot } from '../../src/chat/viewSlot';

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
