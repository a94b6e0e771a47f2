/**
 * Issue 4: how invalid `acpAgents.agents` settings are reported while the valid (or demo) agents keep
 * working.
 */
import { strict as assert } from 'node:assert';
import { DEMO_AGENT_ID, eventually } from './support/harness';
import { useDemoChats } from './support/demoChats';

describe('agent settings: invalid acpAgents.agents entries (issue 4)', () => {
  const suite = useDemoChats({ closeEditors: true });

  it('reports an invalid acpAgents.agents entry and still offers the demo agent', async () => {
    await suite.settings.set('agents', [{ name: '' }]);
    const errors = await eventually('the settings error', () => {
      const found = suite.api.catalog.agents.errors;
      return found.length > 0 && found;
    });
    assert.equal(errors.length, 1);
    assert.ok(
      errors[0]?.startsWith('acpAgents.agents[0]: name needs a name'),
      `unexpected error: ${errors[0]}`,
    );
    assert.deepEqual(
      suite.api.catalog.agents.agents.map((agent) => agent.id),
      [DEMO_AGENT_ID],
    );

    await suite.freshChat();
    assert.equal(suite.api.chat.viewState().selectedAgentId, DEMO_AGENT_ID);
    const { turn, reply } = await suite.ask('stream 2');
    assert.equal(turn.status, 'completed');
    assert.equal(reply, 'chunk 1 chunk 2 ');
  });

  it('skips the invalid entry but offers and runs the valid ones', async () => {
    const demo = suite.api.catalog.agents.agents.find((agent) => agent.id === DEMO_AGENT_ID);
    assert.ok(demo, 'the demo agent is offered before the change');
    await suite.settings.set('agents', [
      { name: 'Broken', command: '' },
      {
        name: 'Second demo',
        command: demo.command,
        // The extra argument (ignored by the agent) tells this process apart from the built-in demo agent.
        args: [...demo.args, '--variant=commands-test'],
        env: { ELECTRON_RUN_AS_NODE: '1' },
      },
    ]);
    await eventually(
      'the new agent list',
      () => suite.api.catalog.agents.agents[0]?.id === 'agent:second-demo',
    );
    assert.deepEqual(
      suite.api.catalog.agents.agents.map((agent) => agent.label),
      // The demo agent stays offered, last, once real agents are configured.
      ['Second demo', 'Demo agent (offline)'],
    );
    assert.equal(suite.api.catalog.agents.errors.length, 1);
    assert.ok(suite.api.catalog.agents.errors[0]?.startsWith('acpAgents.agents[0]: command needs a command'));

    await suite.freshChat();
    assert.equal(suite.api.chat.viewState().selectedAgentId, 'agent:second-demo');
    const { reply } = await suite.ask('stream 2');
    assert.equal(reply, 'chunk 1 chunk 2 ');
    assert.equal(suite.api.chat.currentStatus.state, 'ready');
  });
});
