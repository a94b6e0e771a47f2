import { strict as assert } from 'node:assert';
import { ChatHarness, testAgent } from './support/chatHarness';
import { ownedPerTest } from '../support/ownedPerTest';

describe('chat: Sign out of the agent', () => {
  const owned = ownedPerTest();

  it("signs the window chat's agent out, and the chat goes on in its session afterwards", async () => {
    const chat = owned(new ChatHarness({ agents: [testAgent('a')] }));
    await chat.ready();
    await chat.send('hello');
    await chat.controller.signOut();
    assert.ok(chat.logger.lines.some((line) => line.message === 'Signed out of Demo agent (offline)'));
    await chat.send('again');
    assert.equal(chat.transcript(), 'user:hello|agent:You said: hello|user:again|agent:You said: again');
  });

  it('says clearly that an agent without logout cannot sign out', async () => {
    const chat = owned(new ChatHarness({ agents: [testAgent('a', { TEST_AGENT_MINIMAL: '1' })] }));
    await chat.ready();
    await assert.rejects(chat.controller.signOut(), {
      kind: 'not_supported',
      message: 'Signing out (logout) is not supported by Demo agent (offline).',
    });
  });
});
