import { strict as assert } from 'node:assert';
import { ManualClock } from '../support/manualClock';
import { ownedPerTest } from '../support/ownedPerTest';
import { ChatHarness, testAgent, until } from './support/chatHarness';

/** What Claude Code's adapter printed, run as root, before it hung on session/new. */
const FATAL =
  'Error: --dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons';

describe('a chat whose agent does not answer its session’s setup', () => {
  const owned = ownedPerTest();

  function hangingChat(clock: ManualClock, env: Record<string, string> = {}): ChatHarness {
    return new ChatHarness({
      agents: [testAgent('a', { TEST_AGENT_HANG_SESSION_NEW: FATAL, ...env })],
      clock,
    });
  }

  it('shows the agent’s fatal line as it arrives, then one card at the deadline; the message is not sent', async () => {
    const clock = new ManualClock();
    const harness = owned(hangingChat(clock));
    await harness.controller.handleMessage({ type: 'ready' });
    const sending = harness.send('hello');
    await until(
      () => harness.view.of('agent_status').some((message) => message.status.said === FATAL),
      'the fatal line on the agent status, before any deadline',
    );
    assert.equal(harness.controller.currentStatus.state, 'ready', 'nothing failed before the deadline');

    clock.advance(20_000);
    await sending;
    const status = harness.controller.currentStatus;
    assert.equal(status.state, 'error');
    assert.equal(status.error?.kind, 'timeout');
    // Named as the user knows it (the picker's label), not by the name the program gives itself.
    assert.equal(
      status.error?.message,
      'Test a did not answer session/new (opening a session for the chat) within 20 s.',
    );
    assert.ok(status.error?.stderrTail?.includes(FATAL), 'the card quotes the agent');
    assert.equal(status.said, undefined, 'the wait is over: the card has the line');
    assert.equal(status.authMethods, undefined, 'no Sign in: this agent has no way to sign in');
    assert.deepEqual(harness.view.of('error'), [], 'one card, no second alert');
    assert.equal(harness.transcript(), '', 'never sent: the view gives it back to the composer');

    await harness.controller.handleMessage({ type: 'show_log' });
    assert.equal(harness.showLogRuns, 1);
  });

  it('offers Sign in with the agent’s own methods when it has some (a missing sign-in may be the reason)', async () => {
    const clock = new ManualClock();
    const harness = owned(hangingChat(clock, { TEST_AGENT_REQUIRE_AUTH: '1' }));
    await harness.controller.handleMessage({ type: 'ready' });
    const sending = harness.send('hello');
    await until(() => harness.view.of('agent_status').some((m) => m.status.said === FATAL), 'the fatal line');
    clock.advance(20_000);
    await sending;
    assert.equal(harness.controller.currentStatus.error?.kind, 'timeout');
    assert.deepEqual(harness.controller.currentStatus.authMethods, [
      { id: 'test-login', name: 'Test login', description: 'Signs in to the test agent' },
    ]);
  });

  it('Retry starts the agent afresh instead of waiting on it again', async () => {
    const clock = new ManualClock();
    const harness = owned(hangingChat(clock));
    await harness.controller.handleMessage({ type: 'ready' });
    const first = harness.send('hello');
    await until(() => harness.view.of('agent_status').some((m) => m.status.said === FATAL), 'the fatal line');
    clock.advance(20_000);
    await first;
    const pidBefore = startedPids(harness);
    assert.equal(pidBefore.length, 1);

    const again = harness.send('hello');
    await until(() => startedPids(harness).length === 2, 'a second agent process');
    assert.ok(
      harness.logger
        .messages('info')
        .some((line) => /Restarting .*did not answer a session's setup/.test(line)),
    );
    await until(() => harness.controller.currentStatus.said === FATAL, 'the new process says it too');
    clock.advance(20_000);
    await again;
    assert.equal(harness.controller.currentStatus.error?.kind, 'timeout');
  });
});

describe('a message sent while its agent is restarted under it', () => {
  const owned = ownedPerTest();

  it('is sent once the agent is back (trust granted, settings changed), never dropped', async () => {
    const harness = owned(
      new ChatHarness({
        agents: [testAgent('a', { TEST_AGENT_SESSION_DELAY_MS: '800' })],
        traceProtocol: true,
      }),
    );
    const sending = harness.send('hello');
    await until(
      () => harness.logger.messages('trace').some((line) => line.includes('"method":"session/new"')),
      'the session opening',
    );
    await harness.controller.restart(); // the agent stops under the opening, and starts again
    await sending;
    await until(() => harness.transcript() === 'user:hello|agent:You said: hello', 'the answer');
    assert.deepEqual(harness.view.of('error'), []);
  });
});

/** The pids of the agent processes the chat started, from its log. */
function startedPids(chat: ChatHarness): string[] {
  return chat.logger
    .messages('info')
    .flatMap((line) => /^Starting .* \(pid (\d+)\)$/.exec(line)?.slice(1, 2) ?? []);
}
