import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentSession } from '../../src/core/session/agentSession';
import type { ToolCallEntry, Turn } from '../../src/core/thread/threadTypes';
import { agentEntry, entriesOf, text, useTestAgents, waitFor } from './support/testAgent';
import { until } from './support/chatHarness';

/** Sends `prompt`, cancels the turn once the agent's first words are in, and resolves with the ended turn. */
async function cancelAfterFirstWords(session: AgentSession, prompt: string): Promise<Turn> {
  const running = session.prompt([text(prompt)]);
  await waitFor(session, () => entriesOf(session).length === 2);
  await session.cancel();
  return running;
}

describe('cancelling a turn', () => {
  const agents = useTestAgents();

  it('ends a hanging turn as cancelled and keeps the partial text', async () => {
    const agent = await agents.start();
    const session = await agent.session();
    const turn = await cancelAfterFirstWords(session, 'hang');
    assert.equal(turn.status, 'cancelled');
    assert.equal(turn.stopReason, 'cancelled');
    assert.deepEqual(entriesOf(session)[1], agentEntry(turn, 'waiting '));
  });

  it('resolves a pending permission request as cancelled', async () => {
    // A policy that never answers: the request stays pending until something settles it.
    const agent = await agents.start({ policy: () => undefined });
    const session = await agent.session();
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
    const agent = await agents.start({ client: { sessionOptions: { cancelGraceMs: 300 } } });
    const session = await agent.session();
    const turn = await cancelAfterFirstWords(session, 'stubborn 5000');
    assert.equal(turn.status, 'cancelled');
    assert.equal(session.isRunning, false);
    // The warning comes when the grace has passed, after the turn already ended.
    const warned = (): boolean =>
      agent.logger.messages('warn').some((m) => m.includes('did not end the cancelled turn in 300 ms'));
    assert.equal(warned(), false);
    await until(warned, 'the warning after the 300 ms grace');
  });

  it('stops a slow stream in the middle and keeps what arrived', async () => {
    const agent = await agents.start();
    const session = await agent.session();
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
    const agent = await agents.start();
    const session = await agent.session();
    await session.cancel();
    const turn = await session.prompt([text('stream 1')]);
    assert.equal(turn.status, 'completed');
  });
});

describe('what an agent sends for a stopped turn after the next one began', () => {
  const agents = useTestAgents();

  it('is never glued onto the next turn’s answer (the realAdapter flake, made deterministic)', async () => {
    const agent = await agents.start();
    const release = join(agent.dir, 'release-late-chunks');
    const session = await agent.session();
    assert.equal((await cancelAfterFirstWords(session, `linger ${release}`)).status, 'cancelled');

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
