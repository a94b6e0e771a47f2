import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import { testAgent, useReadyChats } from './support/chatHarness';
import { useTempFolder } from '../support/tempFolder';

describe('chat: deleting a chat on the agent side too', () => {
  const readyChat = useReadyChats();
  const state = useTempFolder('acp-state-');

  it('offers it for a chat with a session on an agent that has session/delete, and deletes that session', async () => {
    const chat = await readyChat({ agents: [testAgent('a', { TEST_AGENT_STATE_DIR: state.path })] });
    await chat.send('hello');
    const chatId = chat.controller.windowChatId;
    assert.equal(chat.controller.chatList()[0]?.deletableOnAgent, true);
    assert.equal(readdirSync(state.path).length, 1, 'the agent keeps the session');
    await chat.controller.handleMessage({ type: 'delete_chat', chatId, onAgent: true });
    assert.deepEqual(readdirSync(state.path), [], "the agent's session is gone");
    assert.ok(!chat.controller.chatList().some((summary) => summary.chatId === chatId));
    assert.deepEqual(chat.view.of('error'), []);
  });

  it('a plain delete leaves the agent its session; an agent without session/delete is not offered it', async () => {
    const chat = await readyChat({
      agents: [
        testAgent('a', { TEST_AGENT_STATE_DIR: state.path }),
        testAgent('m', { TEST_AGENT_MINIMAL: '1' }),
      ],
      traceProtocol: true,
    });
    await chat.send('hello');
    await chat.controller.handleMessage({ type: 'delete_chat', chatId: chat.controller.windowChatId });
    assert.equal(readdirSync(state.path).length, 1, "the agent's session stays");
    const sent = chat.logger.messages('trace').filter((line) => line.startsWith('client → agent'));
    assert.ok(
      sent.some((line) => line.includes('"session/prompt"')),
      'the trace shows what was sent',
    );
    assert.ok(
      !sent.some((line) => line.includes('"session/delete"') || line.includes('"session/close"')),
      'the session stays open on the agent: one kept only in memory is not lost',
    );
    await chat.controller.selectAgent('m');
    await chat.send('hi');
    const minimal = chat.controller.chatList().find((summary) => summary.agentId === 'm');
    assert.ok(minimal);
    assert.equal(minimal.deletableOnAgent, undefined);
  });
});
