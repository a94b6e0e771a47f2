import { strict as assert } from 'node:assert';
import { ChatHarness, testAgent } from './support/chatHarness';

describe('the chat in Restricted Mode', () => {
  let chat: ChatHarness;
  afterEach(async () => chat.dispose());

  it('says the workspace is untrusted and opens the trust editor from the notice', async () => {
    chat = new ChatHarness({ agents: [testAgent('a')], trusted: false });
    await chat.ready();
    assert.equal(chat.controller.currentStatus.error?.kind, 'untrusted');
    await chat.controller.handleMessage({ type: 'manage_trust' });
    assert.equal(chat.manageTrustRuns, 1);
    assert.equal(chat.checkAgentsRuns, 0);
  });
});
