import { strict as assert } from 'node:assert';
import { AgentClient } from '../../src/core/connection/agentClient';
import { AgentError } from '../../src/core/connection/errors';
import { firstTurn, hostileOptions, memory, MiB, startHostile, text, until } from './hostile';
import { ownedPerTest } from '../support/ownedPerTest';

describe('faults: the connection and what the agent sends', () => {
  const owned = ownedPerTest();

  it('stops the agent and says why when it sends a line over 32 MiB; never "connected" with a dead connection', async () => {
    const agent = owned(await startHostile());
    const session = await agent.session();
    const before = memory();
    const turn = await session.prompt([text('huge')]);
    assert.equal(turn.status, 'interrupted');
    assert.equal(
      turn.error?.message,
      'hostile sent a message larger than 32 MiB, so it was stopped. Your next message restarts it.',
    );
    assert.equal(agent.client.connected, false);
    await until(() => agent!.client.exitInfo !== undefined);
    assert.equal(agent.client.endReason?.message, turn.error?.message);
    const grown = memory().rss - before.rss;
    assert.ok(grown < 200 * MiB, `rss grew ${Math.round(grown / MiB)} MiB`);
  });

  it('holds at most 32 MiB of a line that never ends, then stops the agent', async () => {
    const agent = owned(await startHostile());
    const session = await agent.session();
    const before = memory();
    const turn = await session.prompt([text('partial')]);
    assert.equal(turn.status, 'interrupted');
    assert.match(turn.error?.message ?? '', /sent a message larger than 32 MiB/);
    const grown = memory().rss - before.rss;
    assert.ok(grown < 200 * MiB, `rss grew ${Math.round(grown / MiB)} MiB`);
  });

  it('stops an agent that closes its output but keeps running, and says so', async () => {
    const agent = owned(await startHostile());
    const { turn } = await firstTurn(agent, 'close-stdout');
    assert.equal(turn.status, 'interrupted');
    assert.equal(
      turn.error?.message,
      'hostile closed its output but kept running, so it was stopped. Your next message restarts it.',
    );
    await until(() => agent!.client.exitInfo !== undefined);
    assert.equal(agent.client.connected, false);
  });

  for (const traceProtocol of [false, true]) {
    it(`survives a message nested 10,000 levels deep (trace ${traceProtocol ? 'on' : 'off'})`, async () => {
      const agent = owned(await startHostile({ client: { traceProtocol } }));
      const { session, turn } = await firstTurn(agent, 'deep');
      // JSON.stringify of this message overflows the stack; tracing and error paths must not.
      assert.equal(turn.status, 'completed');
      const reply = session.thread.snapshot().entries[1];
      assert.equal(reply?.kind === 'agent' && reply.text, 'deepafter deep');
      assert.equal(agent.client.connected, true);
      assert.equal((await session.prompt([text('hello')])).status, 'completed');
      if (traceProtocol) {
        const traced = agent.logger.messages('trace');
        assert.ok(traced.length > 0);
        assert.ok(
          traced.every((line) => line.length < 20_000),
          'every traced line is bounded',
        );
      }
    });
  }

  it('ignores malformed JSON, batches and answers to unknown ids, and goes on', async () => {
    const agent = owned(await startHostile());
    const { session, turn } = await firstTurn(agent, 'garbage');
    assert.equal(turn.status, 'completed');
    const reply = session.thread.snapshot().entries[1];
    assert.equal(reply?.kind === 'agent' && reply.text, 'still here');
    assert.equal(agent.client.connected, true);
  });

  it('bounds updates for unknown sessions in number and bytes, reported once', async () => {
    const agent = owned(await startHostile());
    const session = await agent.session();
    const before = memory();
    const turn = await session.prompt([text('orphans')]);
    assert.equal(turn.status, 'completed');
    const grown = memory().heap - before.heap;
    assert.ok(grown < 32 * MiB, `heap grew ${Math.round(grown / MiB)} MiB for 100 MB of orphan updates`);
    const reports = agent.logger
      .messages('warn')
      .filter((m) => m.startsWith('Dropped updates for unknown sessions'));
    assert.equal(reports.length, 1);
  });

  it('reports an agent that exits at start with its stderr', async () => {
    const { logger: _logger, dir: _dir, ...options } = hostileOptions({ start: 'exit' });
    await assert.rejects(AgentClient.start(options), (error: unknown) => {
      assert.ok(error instanceof AgentError);
      assert.equal(error.message, 'The agent exited with code 2.');
      return true;
    });
  });

  it('times out an agent that never answers initialize within 100 ms of the configured time', async () => {
    const {
      logger,
      dir: _dir,
      ...options
    } = hostileOptions({
      start: 'silent',
      client: { deadlines: { startMs: 500 }, traceProtocol: true },
    });
    // Timed from the moment initialize is written (the trace), not from the spawn.
    let sentAt = 0;
    const trace = logger.trace.bind(logger);
    logger.trace = (message: string) => {
      if (message.includes('"method":"initialize"')) {
        sentAt = Date.now();
      }
      trace(message);
    };
    await assert.rejects(
      AgentClient.start({ ...options, ports: { ...options.ports, logger } }),
      (error: unknown) => {
        assert.ok(error instanceof AgentError);
        assert.equal(error.kind, 'timeout');
        return true;
      },
    );
    const took = Date.now() - sentAt;
    assert.ok(
      sentAt > 0 && took >= 490 && took < 600,
      `initialize timed out after ${took} ms (configured 500)`,
    );
  });

  it('keeps a bounded stderr tail of a 64 MiB stderr flood and still works', async () => {
    const before = memory();
    const agent = owned(await startHostile({ start: 'stderr-flood' }));
    const session = await agent.session();
    assert.equal((await session.prompt([text('hello')])).status, 'completed');
    assert.ok(agent.client.process.stderr.lastLines(20).length <= 20);
    const grown = memory().heap - before.heap;
    assert.ok(grown < 64 * MiB, `heap grew ${Math.round(grown / MiB)} MiB`);
  });
});
