import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import { listedIds, useTestAgents } from './support/testAgent';

describe('session/delete and logout against the test agent', () => {
  const agents = useTestAgents();

  it('deletes a session on the agent side for good: not listed, not loadable, no longer routed', async () => {
    const agent = await agents.startKeepingSessions();
    const kept = await agent.session();
    const gone = await agent.session();
    await agent.client.deleteSession(gone.id);
    assert.equal(agent.client.session(gone.id), undefined);
    assert.deepEqual(await listedIds(agent), [kept.id]);
    assert.deepEqual(readdirSync(agents.stateDir), [`${kept.id}.json`]);
    await assert.rejects(agent.client.loadSession(gone.id, { cwd: agent.dir }), { kind: 'not_found' });
  });

  it('signs out: an agent that requires sign-in refuses new sessions until authenticate again', async () => {
    const agent = await agents.start({ env: { TEST_AGENT_REQUIRE_AUTH: '1' } });
    await agent.client.authenticate('test-login');
    await agent.session();
    await agent.client.logout();
    await assert.rejects(agent.session(), { kind: 'auth_required' });
    await agent.client.authenticate('test-login');
    await agent.session();
  });

  it('says clearly that an agent without them supports neither', async () => {
    const agent = await agents.start({ env: { TEST_AGENT_MINIMAL: '1' } });
    const session = await agent.session();
    await assert.rejects(agent.client.deleteSession(session.id), {
      kind: 'not_supported',
      message: 'Deleting a session (session/delete) is not supported by Demo agent (offline).',
    });
    await assert.rejects(agent.client.logout(), {
      kind: 'not_supported',
      message: 'Signing out (logout) is not supported by Demo agent (offline).',
    });
    assert.equal(agent.client.session(session.id), session, 'the session still routes');
  });
});
