import { strict as assert } from 'node:assert';
import type { HostMessage, HostPost, ThreadEventMessage } from '../../src/protocol';
import { ANSWER_WAIT_MS, endsAnswerWait, ViewPosts } from '../../src/chat/viewPosts';
import type { ViewSink } from '../../src/chat/viewSink';
import { ManualClock } from '../support/manualClock';
import { ChatHarness, chatListsOf, testAgent, until } from './support/chatHarness';
import { ownedPerTest } from '../support/ownedPerTest';

describe('ViewPosts: after a Send, what the host says waits for the turn’s end, a little while at most, and goes with it', () => {
  const owned = ownedPerTest();

  /** A chat whose view gets its messages through ViewPosts on a clock the test moves; its posts and what the controller posted. */
  async function batchedChat() {
    const chat = owned(new ChatHarness({ agents: [testAgent('a')] }));
    const clock = new ManualClock();
    const posts: HostMessage[][] = [];
    const viewPosts = owned(
      new ViewPosts(
        (post: HostPost) => posts.push(Array.isArray(post) ? [...post] : [post as HostMessage]),
        clock,
      ),
    );
    const posted: HostMessage[] = [];
    const sink: ViewSink = {
      post: (message) => {
        posted.push(message);
        viewPosts.post(message);
      },
    };
    chat.controller.attachView(sink);
    await chat.controller.handleMessage({ type: 'ready' }, sink);
    await chat.controller.connectActive();
    await until(() => posts.length > 0 && posted.length > 0, 'the view’s first messages');
    const send = (text: string): Promise<void> => {
      const message = { type: 'send', text };
      viewPosts.received(message);
      return chat.controller.handleMessage(message, sink);
    };
    const events = (post: HostMessage[]): ThreadEventMessage[] =>
      post.flatMap((message) => (message.type === 'thread_events' ? message.events : []));
    return { chat, clock, posts, posted, send, events };
  }

  it('a short answer goes in one post with the chat list, the turn’s start and its end', async () => {
    const { chat, posts, send, events } = await batchedChat();
    for (const n of [1, 2, 3]) {
      const from = posts.length;
      await send(`ping ${n}`);
      await until(() => posts.slice(from).some((post) => events(post).some((e) => e.type === 'turn_ended')));
      const trip = posts.slice(from);
      assert.equal(trip.length, 1, `ping ${n}: one post, not ${trip.length}`);
      const kinds = events(trip[0]!).map((event) => event.type);
      assert.deepEqual(
        kinds.filter((kind) => kind !== 'state_updated'),
        ['turn_started', 'entry_added', 'entry_added', 'text_appended', 'turn_ended'],
      );
      // The chat's changes in the list (running, then done) went with it, and leave the page the host's list.
      const changes = trip[0]!.filter((message) => message.type === 'chat_changed');
      assert.ok(changes.length >= 1, 'the chat list’s change went with it');
      assert.deepEqual(
        chatListsOf(posts.flat()).at(-1),
        chat.controller.viewState().chats,
        'the page holds the host’s list',
      );
    }
  });

  it('a silent agent’s turn shows as started once the wait is over', async () => {
    const { chat, clock, posts, posted, send, events } = await batchedChat();
    const from = posts.length;
    const sending = send('stream 1 delay 60000');
    const started = (list: HostMessage[]): boolean => events(list).some((e) => e.type === 'turn_started');
    await until(() => started(posted), 'the controller posted the turn’s start');
    assert.ok(!posts.slice(from).some(started), 'held while the agent is silent');
    clock.advance(ANSWER_WAIT_MS - 1);
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(!posts.slice(from).some(started), 'held until the wait is over');
    clock.advance(1);
    await until(() => posts.slice(from).some(started), 'the turn’s start, once the wait is over');
    assert.equal(clock.pending, 0, 'no timer left');
    await chat.controller.handleMessage({ type: 'cancel' });
    await sending;
    await until(() => posts.some((post) => events(post).some((e) => e.type === 'turn_ended')), 'the cancel');
  });

  it('the turn’s end, a permission asked, an error or a refused send end the wait; the turn’s start and its parts do not', () => {
    const turn = { id: 't1', status: 'running' as const, startedAt: 1 };
    const user = { kind: 'user' as const, id: 'u1', turnId: 't1', text: 'hi', attachments: [] };
    const agent = { kind: 'agent' as const, id: 'a1', turnId: 't1', text: '', attachments: [] };
    const thread = (events: ThreadEventMessage[]): HostMessage => ({
      type: 'thread_events',
      chatId: 'c',
      events,
    });
    assert.equal(endsAnswerWait({ type: 'chats', chats: [], activeChatId: 'c' }), false);
    assert.equal(
      endsAnswerWait(
        thread([
          { type: 'turn_started', turn },
          { type: 'entry_added', entry: user },
        ]),
      ),
      false,
    );
    assert.equal(
      endsAnswerWait(
        thread([
          { type: 'entry_added', entry: agent },
          { type: 'text_appended', entryId: 'a1', text: 'pong' },
        ]),
      ),
      false,
      'a short answer’s parts wait for its end',
    );
    assert.equal(endsAnswerWait({ type: 'save_problem', chatId: 'c' }), false);
    assert.equal(endsAnswerWait(thread([{ type: 'turn_ended', turn: { ...turn, status: 'failed' } }])), true);
    const tool = {
      kind: 'tool_call' as const,
      id: 'x1',
      turnId: 't1',
      toolCallId: 'call1',
      title: 'Edit README.md',
      toolKind: 'edit' as const,
      status: 'pending' as const,
      content: [],
      locations: [],
    };
    assert.equal(endsAnswerWait(thread([{ type: 'entry_added', entry: tool }])), false, 'a tool call');
    const asking = { ...tool, permission: { key: 'k', options: [], status: 'pending' as const } };
    assert.equal(
      endsAnswerWait(thread([{ type: 'entry_updated', entry: asking }])),
      true,
      'a permission asked',
    );
    assert.equal(endsAnswerWait({ type: 'error', message: 'The agent is not connected.' }), true);
    assert.equal(endsAnswerWait({ type: 'send_cancelled' }), true);
  });
});
