import { strict as assert } from 'node:assert';
import { ChatHarness, testAgent, until } from './support/chatHarness';

/** Long enough that an opening the agent was not told to cancel outlasts the test. */
const SLOW_OPENING = { TEST_AGENT_SESSION_DELAY_MS: '30000' };

describe('Stop or delete while a chat opens its session ($/cancel_request, test agent over stdio)', () => {
  let chat: ChatHarness | undefined;

  afterEach(async () => {
    await chat?.dispose();
    chat = undefined;
  });

  const traced = (text: string): boolean =>
    chat?.logger.lines.some((line) => line.level === 'trace' && line.message.includes(text)) ?? false;
  const agentSaid = (line: string): boolean =>
    chat?.logger.messages('info').includes(`[stderr] ${line}`) ?? false;

  it('Stop while the session is opened for a message: the agent is told, the message kept as a cancelled turn', async () => {
    chat = new ChatHarness({ agents: [testAgent('a', SLOW_OPENING)], traceProtocol: true });
    const sending = chat.send('hello there');
    await until(() => traced('"session/new"'), 'session/new sent');
    assert.equal(chat.controller.chatList()[0]?.running, true, 'the chat counts as running: Stop is offered');
    await chat.controller.cancel();
    await sending;
    await until(() => agentSaid('acp-test-agent: cancelled session/new'), 'the agent told');
    assert.ok(traced('"$/cancel_request"'));
    assert.equal(chat.transcript(), 'user:hello there');
    const state = chat.controller.viewState();
    assert.deepEqual(
      state.chat?.thread.turns.map((turn) => turn.status),
      ['cancelled'],
    );
    assert.equal(chat.controller.chatList()[0]?.running, false);
    assert.deepEqual(chat.view.of('error'), [], 'Stop is no failure');
  });

  it('Stop while the agent is still starting: its session is not waited for, the message kept as cancelled', async () => {
    chat = new ChatHarness({
      agents: [testAgent('a', { ...SLOW_OPENING, TEST_AGENT_INIT_DELAY_MS: '1000' })],
      traceProtocol: true,
    });
    const sending = chat.send('sent while starting');
    await until(() => traced('"initialize"'), 'initialize sent');
    assert.ok(!traced('"session/new"'), 'stopped before the session was asked for');
    await chat.controller.cancel();
    await sending;
    assert.equal(chat.transcript(), 'user:sent while starting');
    assert.deepEqual(
      chat.controller.viewState().chat?.thread.turns.map((turn) => turn.status),
      ['cancelled'],
    );
    await until(() => agentSaid('acp-test-agent: cancelled session/new'), 'the agent told');
  });

  it('deleting the chat while its session is opened tells the agent', async () => {
    chat = new ChatHarness({ agents: [testAgent('a', SLOW_OPENING)], traceProtocol: true });
    const connecting = chat.ready();
    await until(() => traced('"session/new"'), 'session/new sent');
    const chatId = chat.controller.viewState().chat?.chatId ?? '';
    await chat.controller.deleteChat(chatId);
    await connecting;
    await until(() => agentSaid('acp-test-agent: cancelled session/new'), 'the agent told');
    assert.ok(!chat.controller.chatList().some((listed) => listed.chatId === chatId));
  });
});
