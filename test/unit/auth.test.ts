import { strict as assert } from 'node:assert';
import { AgentError } from '../../src/core/connection/errors';
import { firstTurn, text, useTestAgents } from './support/testAgent';

describe('authentication', () => {
  const agents = useTestAgents();

  it('surfaces auth-required as a typed error, then works after authenticate', async () => {
    const agent = await agents.start({ env: { TEST_AGENT_REQUIRE_AUTH: '1' } });
    assert.deepEqual(agent.client.info.authMethods, [
      { id: 'test-login', name: 'Test login', description: 'Signs in to the test agent' },
    ]);
    const failure = await agent.session().then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(failure instanceof AgentError);
    assert.equal(failure.kind, 'auth_required');
    assert.equal(failure.code, -32000);

    await assert.rejects(agent.client.authenticate('nope'), { kind: 'invalid_params' });
    await agent.client.authenticate('test-login');
    const { turn } = await firstTurn(agent, 'stream 1');
    assert.equal(turn.status, 'completed');
  });

  it('classifies a prompt failing with auth required or a rate limit', async () => {
    const agent = await agents.start();
    const session = await agent.session();
    const auth = await session.prompt([text('error -32000 Authentication required')]);
    assert.equal(auth.status, 'failed');
    assert.deepEqual(auth.error, { kind: 'auth_required', message: 'Authentication required', code: -32000 });
    const limited = await session.prompt([text('error 429 Rate limited')]);
    assert.deepEqual(limited.error, { kind: 'rate_limited', message: 'Rate limited', code: 429 });
    const internal = await session.prompt([text('error -32603 upstream 429 Too Many Requests')]);
    assert.deepEqual(internal.error, {
      kind: 'rate_limited',
      message: 'upstream 429 Too Many Requests',
      code: -32603,
    });
    const broken = await session.prompt([text('error -32603 Something broke')]);
    assert.deepEqual(broken.error, { kind: 'internal', message: 'Something broke', code: -32603 });
    // A plain Error thrown by the agent arrives as "Internal error" with the reason only in data.details;
    // the turn keeps that data too, for its Details.
    const thrown = await session.prompt([text('fail No previous sessions found for this project.')]);
    assert.deepEqual(thrown.error, {
      kind: 'internal',
      message: 'Internal error: No previous sessions found for this project.',
      code: -32603,
      data: '{\n  "details": "No previous sessions found for this project."\n}',
    });
    // The session goes on after failed turns.
    assert.equal((await session.prompt([text('stream 1')])).status, 'completed');
  });
});
