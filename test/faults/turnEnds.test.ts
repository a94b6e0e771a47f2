import { strict as assert } from 'node:assert';
import { firstTurn, type Hostile, memory, MiB, startHostile, text, until } from './hostile';

describe('faults: every turn ends', () => {
  let agent: Hostile;
  afterEach(async () => {
    await agent?.stop();
  });

  for (const [mode, sent] of [
    ['null', 'null'],
    ['number', '42'],
    ['bad-reason', '{"stopReason":"exploded"'],
  ] as const) {
    it(`ends the turn with a protocol error when session/prompt answers ${mode}, and the chat goes on`, async () => {
      agent = await startHostile();
      const { session, turn } = await firstTurn(agent, mode);
      assert.equal(turn.status, 'failed');
      assert.equal(turn.error?.kind, 'internal');
      assert.match(turn.error?.message ?? '', /sent a malformed answer to the prompt/);
      assert.ok(turn.error?.message.includes(sent), turn.error?.message);
      assert.ok((turn.error?.message.length ?? 0) < 400, 'the agent’s answer is shortened');
      assert.equal(session.isRunning, false);
      const next = await session.prompt([text('hello')]);
      assert.equal(next.status, 'completed');
    });
  }

  it('Stop ends a turn the agent never answers at once; its late answer does not revive it', async () => {
    agent = await startHostile();
    const session = await agent.session();
    const running = session.prompt([text('ignore-cancel')]);
    await until(() => session.thread.snapshot().entries.length === 2);
    const stoppedAt = Date.now();
    await session.cancel();
    const turn = await running;
    assert.ok(Date.now() - stoppedAt < 500, `Stop took ${Date.now() - stoppedAt} ms`);
    assert.equal(turn.status, 'cancelled');
    // The agent answers 300 ms after the cancel with one more chunk and end_turn.
    await until(() =>
      session.thread.snapshot().entries.some((e) => e.kind === 'agent' && e.text.endsWith('late')),
    );
    const after = session.thread.snapshot().turns.find((t) => t.id === turn.id);
    assert.equal(after?.status, 'cancelled');
    assert.equal(session.isRunning, false);
    assert.equal((await session.prompt([text('hello')])).status, 'completed');
  });

  it('Stop ends a hung turn at once and warns when the agent ignores the cancel past the grace', async () => {
    agent = await startHostile({ client: { sessionOptions: { cancelGraceMs: 300 } } });
    const session = await agent.session();
    const running = session.prompt([text('hang')]);
    await until(() => session.thread.snapshot().entries.length === 2);
    const stoppedAt = Date.now();
    await session.cancel();
    assert.equal((await running).status, 'cancelled');
    await until(() =>
      agent.logger.messages('warn').some((m) => m.includes('did not end the cancelled turn')),
    );
    const waited = Date.now() - stoppedAt;
    assert.ok(waited >= 300 && waited < 400, `grace fired after ${waited} ms (configured 300)`);
  });

  it('sends the next prompt after the stopped one is answered, or after the grace when it never is', async () => {
    agent = await startHostile({ client: { sessionOptions: { cancelGraceMs: 300 } } });
    const session = await agent.session();
    const running = session.prompt([text('hang')]);
    await until(() => session.thread.snapshot().entries.length === 2);
    await session.cancel();
    assert.equal((await running).status, 'cancelled');
    const next = session.prompt([text('hello')]);
    // The new turn shows at once; its prompt goes out once the grace has passed.
    assert.equal(session.isRunning, true);
    assert.equal((await next).status, 'completed');
    assert.ok(
      agent.logger.messages('warn').some((m) => m.includes('did not end the cancelled turn in 300 ms')),
    );
  });

  it('interrupts the turn with the stderr tail when the agent crashes mid-stream', async () => {
    agent = await startHostile();
    const { session, turn } = await firstTurn(agent, 'crash');
    assert.equal(turn.status, 'interrupted');
    assert.equal(turn.error?.message, 'The agent exited with code 3.');
    assert.ok(turn.stderrTail?.includes('hostile: crashing mid-stream'), JSON.stringify(turn.stderrTail));
    const reply = session.thread.snapshot().entries[1];
    assert.equal(reply?.kind === 'agent' && reply.text, 'partial ');
  });

  it('settles a pending permission and interrupts the turn when the agent dies', async () => {
    agent = await startHostile({ policy: () => undefined });
    const { session, turn } = await firstTurn(agent, 'permission-die');
    assert.equal(turn.status, 'interrupted');
    assert.equal(turn.error?.message, 'The agent exited with code 4.');
    assert.deepEqual(session.pendingPermissionKeys(), []);
  });

  it('answers 10,000 concurrent agent requests, with memory bounded', async () => {
    agent = await startHostile();
    const session = await agent.session();
    const before = memory();
    const turn = await session.prompt([text('flood-requests')]);
    assert.equal(turn.status, 'completed');
    const reply = session.thread.snapshot().entries[1];
    assert.equal(reply?.kind === 'agent' && reply.text, 'answered 10000 (10000 errors)');
    const grown = memory().heap - before.heap;
    assert.ok(grown < 64 * MiB, `heap grew ${Math.round(grown / MiB)} MiB`);
  });
});
