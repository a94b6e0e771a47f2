import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { AgentClient } from '../../src/core/connection/agentClient';
import { DEFAULT_DEADLINES, withinDeadline, type DeadlineHost } from '../../src/core/connection/deadlines';
import { AgentError, AgentTimeoutError } from '../../src/core/connection/errors';
import { ManualClock } from '../support/manualClock';
import { ownedPerTest } from '../support/ownedPerTest';
import { until } from '../support/until';
import { startTestAgent } from './support/testAgent';

/** What Claude Code's adapter printed, run as root, before it hung on session/new. */
const FATAL =
  'Error: --dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons';

function host(clock: ManualClock, tail: readonly string[] = []): DeadlineHost {
  return { deadlines: DEFAULT_DEADLINES, clock, agentName: () => 'Claude Code', stderrTail: () => tail };
}

/** A request the "agent" never answers, with what the deadline did to its cancellation signal. */
function unanswered<T>(): {
  send: (signal: AbortSignal) => Promise<T>;
  cancelled: () => boolean;
  answer(value: T): void;
} {
  let signal: AbortSignal | undefined;
  let answer: (value: T) => void = () => undefined;
  return {
    send: (cancellation) => {
      signal = cancellation;
      return new Promise<T>((resolve) => (answer = resolve));
    },
    cancelled: () => signal?.aborted === true,
    answer: (value) => answer(value),
  };
}

describe('request deadlines (every request we send an agent but session/prompt)', () => {
  it('rejects at the deadline, not a moment before, saying what was asked and why, with the agent’s stderr', async () => {
    const clock = new ManualClock();
    const request = unanswered<string>();
    let done = false;
    const waiting = withinDeadline(host(clock, [FATAL]), 'session/new', request.send)
      .then(
        (): unknown => 'answered',
        (error: unknown) => error,
      )
      .finally(() => (done = true));
    clock.advance(DEFAULT_DEADLINES.sessionMs - 1);
    await Promise.resolve();
    assert.equal(done, false, 'still waiting 1 ms before the deadline');
    assert.equal(request.cancelled(), false);
    clock.advance(1);
    const settled = await waiting;
    assert.ok(settled instanceof AgentTimeoutError);
    assert.equal(settled.kind, 'timeout');
    assert.equal(settled.method, 'session/new');
    assert.equal(
      settled.message,
      'Claude Code did not answer session/new (opening a session for the chat) within 20 s.',
    );
    assert.deepEqual(settled.stderrTail, [FATAL]);
    assert.equal(request.cancelled(), true, 'the agent is told ($/cancel_request)');
    assert.equal(clock.pending, 0, 'no timer is left behind');
  });

  it('gives each kind of request its own deadline', async () => {
    const clock = new ManualClock();
    const deadlines = { startMs: 1000, sessionMs: 2000, signInMs: 3000, requestMs: 4000 };
    const cases = [
      ['initialize', 1000],
      ['session/load', 2000],
      ['authenticate', 3000],
      ['session/set_mode', 4000],
      ['session/set_config_option', 4000],
    ] as const;
    for (const [method, ms] of cases) {
      const failure = withinDeadline({ ...host(clock), deadlines }, method, unanswered<void>().send).catch(
        (error: unknown) => error,
      );
      clock.advance(ms - 1);
      clock.advance(1);
      const error = await failure;
      assert.ok(error instanceof AgentTimeoutError, method);
      assert.match(error.message, new RegExp(`did not answer ${method} \\(.+\\) within ${ms / 1000} s\\.$`));
    }
  });

  it('an abandoned request is cancelled at once; an answer after the deadline goes to `late`', async () => {
    const clock = new ManualClock();
    const abandon = new AbortController();
    const request = unanswered<{ sessionId: string }>();
    const lateAnswers: string[] = [];
    const failure = withinDeadline(host(clock), 'session/new', request.send, {
      abandon: abandon.signal,
      late: (value) => lateAnswers.push(value.sessionId),
    }).catch((error: unknown) => error);
    abandon.abort(new Error('Stopped before the message was sent.'));
    const error = await failure;
    assert.ok(error instanceof AgentError);
    assert.equal(error.kind, 'cancelled');
    assert.equal(request.cancelled(), true);
    request.answer({ sessionId: 'sess-late' });
    await until(() => lateAnswers.length > 0, 'the late answer');
    assert.deepEqual(lateAnswers, ['sess-late']);
  });

  it('every request the core sends has one (a static look at every `request(methods.agent.…)`)', () => {
    const root = path.resolve(__dirname, '../../src');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.ts'),
    );
    const found: string[] = [];
    for (const file of files) {
      const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
      lines.forEach((line, index) => {
        const call = /\.request\(\s*$|\.request\(methods\.agent\.([\w.]+)/.exec(line);
        if (!call) {
          return;
        }
        const method = call[1] ?? /methods\.agent\.([\w.]+)/.exec(lines[index + 1] ?? '')?.[1];
        if (method === undefined) {
          return; // not an agent request (a port's)
        }
        found.push(method);
        const before = lines.slice(Math.max(0, index - 6), index + 1).join('\n');
        if (method !== 'session.prompt') {
          assert.match(
            before,
            /withinDeadline|this\.timed/,
            `${file}:${index + 1} sends ${method} without a deadline`,
          );
        }
      });
    }
    for (const method of ['initialize', 'session.new', 'session.load', 'authenticate', 'session.setMode']) {
      assert.ok(found.includes(method), `${method} was looked at (found: ${found.join(', ')})`);
    }
  });
});

describe('an agent that never answers session/new and says why on stderr (test agent over stdio)', () => {
  const owned = ownedPerTest();

  it('times out at the session deadline with the fatal line, and tells the agent', async () => {
    const clock = new ManualClock();
    const agent = owned(
      await startTestAgent({
        env: { TEST_AGENT_HANG_SESSION_NEW: FATAL },
        client: { clock, traceProtocol: true },
      }),
    );
    const client: AgentClient = agent.client;
    const logger = agent.logger;
    const opening = client.newSession({ cwd: agent.dir }).catch((error: unknown) => error);
    // The agent has the request and said why it cannot go on; only the deadline ends the wait.
    await until(() => logger.messages('info').some((line) => line.includes(FATAL)), 'the fatal line');
    clock.advance(DEFAULT_DEADLINES.sessionMs);
    const failure = await opening;
    assert.ok(failure instanceof AgentTimeoutError, String(failure));
    assert.equal(
      failure.message,
      'Demo agent (offline) did not answer session/new (opening a session for the chat) within 20 s.',
    );
    assert.ok(failure.stderrTail.includes(FATAL), failure.stderrTail.join('\n'));
    await until(
      () => logger.messages('trace').some((line) => line.includes('"$/cancel_request"')),
      'the $/cancel_request',
    );
    assert.equal(client.connected, true, 'the agent itself is still there (the chat decides what to do)');
  });
});
