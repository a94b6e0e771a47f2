import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolCallEntry } from '../../src/core/thread/threadTypes';
import { entriesOf, startTestAgent, text, waitFor, type TestAgent } from './support/testAgent';
import { until } from './support/chatHarness';

describe('cancelling a turn', () => {
  let agent: TestAgent;
  afterEach(async () => {
    await agent.stop();
  });

  it('ends a hanging turn as cancelled and keeps the partial text', async () => {
    agent = await startTestAgent();
    const session = await agent.client.newSession({ cwd: agent.dir });
    const running = session.prompt([text('hang')]);
    await waitFor(session, () => entriesOf(session).length === 2);
    await session.cancel();
    const turn = await running;
    assert.equal(turn.status, 'cancelled');
    assert.equal(turn.stopReason, 'cancelled');
    assert.deepEqual(entriesOf(session)[1], {
      kind: 'agent',
      turnId: turn.id,
      text: 'waiting ',
      attachments: [],
    });
  });

  it('resolves a pending permission request as cancelled', async () => {
    // A policy that never answers: the request stays pending until something settles it.
    agent = await startTestAgent({ policy: () => undefined });
    const session = await agent.client.newSession({ cwd: agent.dir });
    const running = session.prompt([text('tool')]);
    await waitFor(session, () => session.pendingPermissionKeys().length === 1);

    await session.cancel();
    const turn = await running;
    assert.equal(turn.status, 'cancelled');
    assert.deepEqual(session.pendingPermissionKeys(), []);
    const tool = entriesOf(session)[1] as ToolCallEntry;
    assert.equal(tool.permission?.status, 'cancelled');
    assert.equal(tool.permission?.selectedOptionId, undefined);
    // The port was told to stop asking.
    assert.equal(agent.permissions.prompts.length, 1);
  });

  it('ends the turn at Stop and warns when the agent does not answer session/cancel in time', async () => {
    agent = await startTestAgent({ client: { sessionOptions: { cancelGraceMs: 300 } } });
    const session = await agent.client.newSession({ cwd: agent.dir });
    const running = session.prompt([text('stubborn 5000')]);
    await waitFor(session, () => entriesOf(session).length === 2);
    await session.cancel();
    const turn = await running;
    assert.equal(turn.status, 'cancelled');
    assert.equal(session.isRunning, false);
    // The warning comes when the grace has passed, after the turn already ended.
    const warned = (): boolean =>
      agent.logger.messages('warn').some((m) => m.includes('did not end the cancelled turn in 300 ms'));
    assert.equal(warned(), false);
    await until(warned, 'the warning after the 300 ms grace');
  });

  it('stops a slow stream in the middle and keeps what arrived', async () => {
    agent = await startTestAgent();
    const session = await agent.client.newSession({ cwd: agent.dir });
    const running = session.prompt([text('stream 100 delay 50')]);
    await waitFor(
      session,
      () => (entriesOf(session)[1] as { text?: string } | undefined)?.text === 'chunk 1 chunk 2 ',
    );
    await session.cancel();
    const turn = await running;
    assert.equal(turn.status, 'cancelled');
    const reply = (entriesOf(session)[1] as { text: string }).text;
    assert.match(reply, /^chunk 1 chunk 2 (chunk 3 )?$/);
  });

  it('does nothing when no turn is running', async () => {
    agent = await startTestAgent();
    const session = await agent.client.newSession({ cwd: agent.dir });
    await session.cancel();
    const turn = await session.prompt([text('stream 1')]);
    assert.equal(turn.status, 'completed');
  });
});

describe('what an agent sends for a stopped turn after the next one began', () => {
  let agent: TestAgent;
  afterEach(async () => {
    await agent.stop();
  });

  it('is never glued onto the next turn’s answer (the realAdapter flake, made deterministic)', async () => {
    agent = await startTestAgent();
    const release = join(agent.dir, 'release-late-chunks');
    const session = await agent.client.newSession({ cwd: agent.dir });
    const first = session.prompt([text(`linger ${release}`)]);
    await waitFor(session, () => entriesOf(session).length === 2);
    await session.cancel();
    assert.equal((await first).status, 'cancelled');

    // The next message: its turn shows at once and waits for the agent's answer to the cancel.
    const second = session.prompt([text('Back again.')]);
    assert.equal(session.thread.runningTurn?.status, 'running');
    writeFileSync(release, ''); // now the agent sends its last two chunks of the stopped turn
    const turn = await second;
    assert.equal(turn.status, 'completed');
    assert.ok(
      agent.logger.messages('info').some((line) => line.includes('sent 2 chunks after the cancel')),
      'the agent did send them',
    );
    const answer = entriesOf(session).filter(
      (entry) =>
        (entry as { turnId?: string }).turnId === turn.id && (entry as { kind: string }).kind === 'agent',
    );
    assert.deepEqual(answer, [
      { kind: 'agent', turnId: turn.id, text: 'You said: Back again.', attachments: [] },
    ]);
    assert.equal(JSON.stringify(entriesOf(session)).includes('after-stop'), false);
  });
});
