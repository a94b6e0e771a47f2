import { strict as assert } from 'node:assert';
import {
  HostMessageSchema,
  type AgentMessageEntry,
  type ThreadEntry,
  type ThreadEvent,
  type ThreadSnapshot,
  type UserMessageEntry,
} from '../../src/protocol';
import { ChatStore } from '../../webview/store';

/*
 * A thread model keeps its own copy of every entry (`compactEntry`, src/protocol/threadModel.ts); the page's store,
 * which gets them from zod's parse, must keep what the host sent, field for field, while every message with no
 * attachments shares one empty list.
 */

const user = (n: number): UserMessageEntry => ({
  kind: 'user',
  id: `u${n}`,
  turnId: `t${n}`,
  text: `ping ${n}`,
  attachments: [],
});
const agent = (n: number): AgentMessageEntry => ({
  kind: 'agent',
  id: `a${n}`,
  turnId: `t${n}`,
  text: '',
  attachments: [],
});

/** A message as the page's boundary parses it (the store is only ever given parsed messages). */
function parsed<T>(message: T): T {
  return HostMessageSchema.parse(message) as T;
}

function storeWith(thread: ThreadSnapshot): ChatStore {
  const store = new ChatStore();
  const message = parsed({
    type: 'snapshot' as const,
    view: { agents: [], status: { state: 'ready' as const }, chat: { chatId: 'c', thread } },
  });
  store.applySnapshot(message.view);
  return store;
}

function apply(store: ChatStore, events: ThreadEvent[]): void {
  const message = parsed({ type: 'thread_events' as const, chatId: 'c', events });
  assert.equal(store.applyEvents('c', message.events), true);
}

describe('the webview store keeps compact copies of entries (through its thread model)', () => {
  it('keeps what arrived, field for field, from a snapshot and from events', () => {
    const history: ThreadEntry = { kind: 'agent', id: 'h1', text: 'from before', attachments: [] };
    const store = storeWith({
      entries: [history, user(1)],
      turns: [],
      state: { configOptions: [], commands: [], plan: [] },
    });
    const withMessageId: AgentMessageEntry = { ...agent(2), messageId: 'm2', text: 'by id' };
    const truncated: AgentMessageEntry = {
      ...agent(3),
      text: 'cut',
      truncated: { limit: 3, omittedChars: 9 },
    };
    const attached: UserMessageEntry = {
      ...user(4),
      attachments: [{ type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' }],
    };
    apply(store, [
      { type: 'entry_added', entry: agent(1) },
      { type: 'text_appended', entryId: 'a1', text: 'You said: ' },
      { type: 'text_appended', entryId: 'a1', text: 'ping 1' },
      { type: 'entry_added', entry: withMessageId },
      { type: 'entry_added', entry: truncated },
      { type: 'entry_added', entry: user(5) },
      { type: 'entry_updated', entry: { ...user(5), text: 'ping 5, edited' } },
      { type: 'entry_added', entry: attached },
    ]);
    assert.deepStrictEqual(store.entries, [
      history,
      user(1),
      { ...agent(1), text: 'You said: ping 1' },
      withMessageId,
      truncated,
      { ...user(5), text: 'ping 5, edited' },
      attached,
    ]);
  });

  it('gives every message with no attachments one shared, frozen list', () => {
    const store = storeWith({
      entries: [user(1)],
      turns: [],
      state: { configOptions: [], commands: [], plan: [] },
    });
    apply(store, [
      { type: 'entry_added', entry: agent(1) },
      { type: 'text_appended', entryId: 'a1', text: 'pong' },
      { type: 'entry_added', entry: { ...agent(2), messageId: 'm2' } },
      { type: 'entry_updated', entry: user(1) },
    ]);
    const lists = new Set(
      store.entries.map((entry) => ('attachments' in entry ? entry.attachments : undefined)),
    );
    assert.equal(lists.size, 1, 'one list for all');
    const [shared] = lists;
    assert.ok(shared && shared.length === 0 && Object.isFrozen(shared));
  });
});
