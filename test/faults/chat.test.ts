import { strict as assert } from 'node:assert';
import type { AgentDefinition } from '../../src/chat/agentSettings';
import { ChatHarness, until } from '../unit/support/chatHarness';
import { HOSTILE_AGENT } from './hostile';

function hostileAgent(id: string): AgentDefinition {
  return { id, label: `Hostile ${id}`, command: process.execPath, args: [HOSTILE_AGENT], env: {} };
}

describe('faults: what the user sees in the chat', () => {
  let chat: ChatHarness;
  afterEach(async () => {
    await chat.dispose();
  });

  it('shows why the agent was stopped after an oversized message, and the next message restarts it', async () => {
    chat = new ChatHarness({ agents: [hostileAgent('h')] });
    await chat.ready();
    await chat.send('huge');
    const ended = chat.view.events().find((e) => e.type === 'turn_ended');
    assert.ok(ended?.type === 'turn_ended');
    assert.equal(ended.turn.status, 'interrupted');
    assert.match(ended.turn.error?.message ?? '', /sent a message larger than 32 MiB, so it was stopped/);
    await until(() => chat.controller.viewState().status.state === 'error', 'error status');
    const status = chat.controller.viewState().status;
    assert.match(status.error?.message ?? '', /sent a message larger than 32 MiB/);

    await chat.send('hello');
    assert.match(chat.transcript(), /agent:echo hello$/);
    assert.equal(chat.controller.viewState().status.state, 'ready');
  });

  it('ends a turn with a malformed prompt answer in the chat and takes the next message', async () => {
    chat = new ChatHarness({ agents: [hostileAgent('h')] });
    await chat.ready();
    await chat.send('null');
    const ended = chat.view.events().find((e) => e.type === 'turn_ended');
    assert.ok(ended?.type === 'turn_ended');
    assert.equal(ended.turn.status, 'failed');
    assert.match(ended.turn.error?.message ?? '', /malformed answer to the prompt \(null\)/);
    await chat.send('hello');
    assert.match(chat.transcript(), /agent:echo hello$/);
  });

  it('shows the turn Cancelled at once on Stop, and the late answer does not revive it', async () => {
    chat = new ChatHarness({ agents: [hostileAgent('h')] });
    await chat.ready();
    const sending = chat.send('ignore-cancel');
    await until(() => chat.view.events().some((e) => e.type === 'entry_added' && e.entry.kind === 'agent'));
    const stoppedAt = Date.now();
    await chat.controller.handleMessage({ type: 'cancel' });
    await sending;
    assert.ok(Date.now() - stoppedAt < 500, `Stop took ${Date.now() - stoppedAt} ms`);
    const turn = () => chat.controller.viewState().chat?.thread.turns.at(-1);
    assert.equal(turn()?.status, 'cancelled');
    await until(() => chat.transcript().endsWith('working late'), 'the late chunk');
    assert.equal(turn()?.status, 'cancelled');
    await chat.send('hello');
    assert.equal(turn()?.status, 'completed');
  });
});
