import { strict as assert } from 'node:assert';
import { AgentExitedError } from '../../src/core/connection/errors';
import { agentEntry, entriesOf, firstTurn, text, useTestAgents, waitFor } from './support/testAgent';

describe('agent failures', () => {
  const agents = useTestAgents();

  it('keeps the partial text and marks the turn interrupted when the agent crashes mid-stream', async () => {
    const agent = await agents.start();
    const session = await agent.session();
    const exits: unknown[] = [];
    agent.client.onExit((exit) => exits.push(exit));
    const turn = await session.prompt([text('crash')]);

    assert.equal(turn.status, 'interrupted');
    assert.equal(turn.error?.kind, 'process_exited');
    assert.equal(turn.error?.message, 'The agent exited with code 3.');
    assert.ok(
      turn.stderrTail?.includes('acp-test-agent: crashing on purpose'),
      JSON.stringify(turn.stderrTail),
    );
    assert.deepEqual(entriesOf(session)[1], agentEntry(turn, 'partial 1 partial 2 '));
    assert.deepEqual(exits, [{ code: 3, signal: null }]);
    assert.deepEqual(agent.client.exitInfo, { code: 3, signal: null });
  });

  it('fails new requests to a dead agent with a process_exited error', async () => {
    const agent = await agents.start();
    const session = await agent.session();
    await session.prompt([text('crash')]);
    const next = await session.prompt([text('stream 1')]);
    assert.equal(next.status, 'interrupted');
    await assert.rejects(agent.session(), (error: unknown) => {
      assert.ok(error instanceof AgentExitedError);
      return true;
    });
  });

  it('logs a malformed stdout line and goes on with the session', async () => {
    const agent = await agents.start();
    const { session, turn } = await firstTurn(agent, 'malformed');
    assert.equal(turn.status, 'completed');
    assert.deepEqual(entriesOf(session)[1], agentEntry(turn, 'before after'));
    assert.deepEqual(agent.logger.messages('warn'), [
      "Ignored a line on the agent's stdout that is not JSON-RPC (18 bytes): this is not json {",
    ]);
    assert.equal((await session.prompt([text('stream 1')])).status, 'completed');
  });

  it('settles a pending permission when the agent dies', async () => {
    const agent = await agents.start({ policy: () => undefined });
    const session = await agent.session();
    const running = session.prompt([text('tool')]);
    await waitFor(session, () => session.pendingPermissionKeys().length === 1);
    process.kill(agent.client.process.pid as number, 'SIGKILL');
    const turn = await running;
    assert.equal(turn.status, 'interrupted');
    assert.equal(turn.error?.message, 'The agent was killed by SIGKILL.');
    assert.deepEqual(session.pendingPermissionKeys(), []);
  });

  it("ends a failed prompt with the agent's code and data in the thread, and logs them", async () => {
    const agent = await agents.start();
    const session = await agent.session();
    const turn = await session.prompt([
      text('error -32603 Upstream failed data {"status":502,"body":"<img src=x onerror=alert(1)>"}'),
    ]);

    const details = {
      kind: 'internal',
      message: 'Upstream failed',
      code: -32603,
      data: '{\n  "status": 502,\n  "body": "<img src=x onerror=alert(1)>"\n}',
    };
    assert.equal(turn.status, 'failed');
    assert.deepEqual(turn.error, details);
    assert.deepEqual(session.thread.snapshot().turns.at(-1)?.error, details);
    assert.deepEqual(agent.logger.messages('error'), [
      'Demo agent (offline) failed the prompt: Upstream failed [internal, code -32603]\n' +
        '  data: {\n    "status": 502,\n    "body": "<img src=x onerror=alert(1)>"\n  }',
    ]);
  });
});
