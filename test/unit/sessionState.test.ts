import { strict as assert } from 'node:assert';
import type { ThreadEvent } from '../../src/core/thread/threadTypes';
import { entriesOf, recordEvents, text, useTestAgent } from './support/testAgent';
// The test agent's model setting is the one the webview tests draw.
import { modelOption } from '../webview/support/builders';

describe('session-wide state: plan, modes, config options, commands, title, usage', () => {
  const agent = useTestAgent();

  it('takes modes and config options from the session/new response', async () => {
    const session = await agent.session();
    const state = session.thread.snapshot().state;
    assert.deepEqual(state.modes, {
      currentModeId: 'ask',
      available: [
        { id: 'ask', name: 'Ask' },
        { id: 'code', name: 'Code' },
      ],
    });
    assert.deepEqual(state.configOptions, [modelOption('fast')]);
  });

  it('replaces the plan on each update', async () => {
    const session = await agent.session();
    const events = recordEvents(session);
    await session.prompt([text('plan')]);
    const plans = events.flatMap((e: ThreadEvent) =>
      e.type === 'state_updated' && e.changed === 'plan' ? [e.state.plan] : [],
    );
    assert.equal(plans.length, 2);
    assert.deepEqual(plans[1], [
      { content: 'Read the code', priority: 'high', status: 'completed' },
      { content: 'Write the fix', priority: 'medium', status: 'in_progress' },
      { content: 'Run tests', priority: 'low', status: 'pending' },
    ]);
    assert.deepEqual(session.thread.snapshot().state.plan, plans[1]);
  });

  it('applies mode, config option and available command updates', async () => {
    const session = await agent.session();
    await session.prompt([text('modes')]);
    const state = session.thread.snapshot().state;
    assert.equal(state.modes?.currentModeId, 'code');
    assert.deepEqual(state.configOptions, [modelOption('smart')]);
    assert.deepEqual(state.commands, [
      { name: 'explain', description: 'Explain the selection' },
      { name: 'test', description: 'Run the tests', inputHint: 'test name' },
    ]);
  });

  it('sets the title and usage with cost', async () => {
    const session = await agent.session();
    await session.prompt([text('title')]);
    const state = session.thread.snapshot().state;
    assert.equal(state.title, 'Test session title');
    assert.deepEqual(state.usage, { used: 1234, size: 200000, cost: { amount: 0.0123, currency: 'USD' } });
    assert.equal(entriesOf(session).length, 2);
  });

  it('changes the mode and a config option on request', async () => {
    const session = await agent.session();
    await session.setMode('code');
    assert.equal(session.thread.snapshot().state.modes?.currentModeId, 'code');
    await session.setConfigOption('model', 'smart');
    assert.deepEqual(session.thread.snapshot().state.configOptions, [modelOption('smart')]);
    await assert.rejects(session.setMode('nope'), { name: 'AgentError', kind: 'invalid_params' });
    await assert.rejects(session.setConfigOption('model', 'huge'), {
      name: 'AgentError',
      kind: 'invalid_params',
    });
    assert.equal(session.thread.snapshot().state.modes?.currentModeId, 'code');
  });
});
