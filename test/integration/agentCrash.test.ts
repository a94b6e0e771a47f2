/**
 * Issue 5: an agent process that dies mid-turn (killed, or crashing) interrupts the turn with its stderr
 * tail and the chat goes on; a restarted agent that reuses a tool call id does not mix up the turns.
 */
import { strict as assert } from 'node:assert';
import { demoAgentPids, eventually } from './support/harness';
import { useDemoChats } from './support/demoChats';

describe('sessions: an agent that dies or restarts mid-chat (issue 5)', () => {
  // Permission requests in these tests are answered inline.
  const suite = useDemoChats({ chatView: true, clearRules: true });

  it('interrupts the turn when the agent process is killed, with its stderr tail; retry succeeds', async () => {
    const pids = demoAgentPids();
    assert.equal(pids.length, 1, `expected one demo agent process, found ${JSON.stringify(pids)}`);
    const pid = pids[0]!;
    try {
      const first = await suite.begin('tool');
      await eventually(
        'the permission request',
        () => suite.toolCallsOf(first.turnId)[0]?.permission?.status === 'pending',
      );

      process.kill(pid, 'SIGKILL');
      const { turn } = await first.done;
      assert.equal(turn.status, 'interrupted');
      assert.equal(turn.error?.kind, 'process_exited');
      assert.equal(turn.error?.message, 'The agent was killed by SIGKILL.');
      assert.ok(
        turn.stderrTail?.includes(`acp-test-agent: started pid ${pid}`),
        `the stderr tail lacks the banner: ${JSON.stringify(turn.stderrTail)}`,
      );
      const call = suite.toolCallsOf(first.turnId)[0];
      assert.equal(call?.permission?.status, 'cancelled', 'the pending permission was settled');
      assert.equal(suite.api.chat.currentStatus.state, 'error');
      assert.equal(suite.api.chat.currentStatus.error?.kind, 'process_exited');

      // Retry sends the same prompt again to a new agent process.
      const retried = suite.api.chat.handleMessage({ type: 'retry' });
      const retryTurnId = await eventually('the retried turn', () => {
        const turns = suite.thread().turns;
        return turns.length === 2 && turns[1]!.id;
      });
      // The new process numbers its tool calls from call-1 again, so the request may land on the first
      // turn's entry (see the tool call id test below): answer it wherever it is.
      const permission = await eventually('the retried permission request', () => {
        const entry = suite
          .thread()
          .entries.find((e) => e.kind === 'tool_call' && e.permission?.status === 'pending');
        return entry?.kind === 'tool_call' && entry.permission;
      });
      await suite.answerPermission(permission.key, 'allow-once');
      await retried;
      const turns = suite.thread().turns;
      assert.equal(turns[1]?.status, 'completed');
      assert.equal(suite.replyOf(retryTurnId), 'Edit allowed (the demo writes nothing).');
      assert.deepEqual(
        suite.transcript().filter(([kind]) => kind === 'user'),
        [
          ['user', 'tool'],
          ['user', 'tool'],
        ],
      );
      assert.equal(suite.api.chat.currentStatus.state, 'ready');
      const now = demoAgentPids();
      assert.equal(now.length, 1);
      assert.notEqual(now[0], pid, 'a new process answers');
    } finally {
      await suite.api.chat.restart(); // forgets the crash, so later starts are not delayed
    }
  });

  it("keeps each turn's tool calls apart when a restarted agent reuses a tool call id", async () => {
    // The demo agent numbers tool calls per process (call-1, call-2, …); after a restart the resumed
    // session sees call-1 again. The new turn must get its own entry, the old one must stay as it was.
    const first = await suite.begin('tool');
    const firstCall = await eventually('the first permission request', () => {
      const entry = suite.toolCallsOf(first.turnId)[0];
      return entry?.permission?.status === 'pending' && entry;
    });
    await suite.answerPermission(firstCall.permission!.key, 'allow-once');
    assert.equal((await first.done).reply, 'Edit allowed (the demo writes nothing).');

    await suite.api.chat.restart();
    const second = await suite.begin('tool');
    try {
      const secondCall = await eventually(
        'a tool call entry of the second turn with a pending permission',
        () => {
          const entry = suite.toolCallsOf(second.turnId)[0];
          return entry?.permission?.status === 'pending' && entry;
        },
        5_000,
      ).catch((error: Error) => {
        const calls = suite
          .thread()
          .entries.flatMap((e) =>
            e.kind === 'tool_call'
              ? [`${e.id} turn ${e.turnId} ${e.toolCallId} ${e.status} permission ${e.permission?.status}`]
              : [],
          );
        throw new Error(`${error.message}; tool call entries: ${calls.join(' | ')}`);
      });
      await suite.answerPermission(secondCall.permission!.key, 'reject-once');
      assert.equal((await second.done).reply, 'Edit rejected.');
      const old = suite.toolCallsOf(first.turnId);
      assert.equal(old.length, 1);
      assert.equal(old[0]?.status, 'completed', "the first turn's tool call is unchanged");
      assert.equal(old[0]?.permission?.selectedOptionId, 'allow-once');
    } finally {
      await suite.api.chat.cancel();
      await second.done.catch(() => {});
    }
  });

  it('interrupts the turn when the agent crashes mid-answer; the next message works', async () => {
    try {
      const { turn, reply } = await suite.ask('crash');
      assert.equal(turn.status, 'interrupted');
      assert.equal(turn.error?.message, 'The agent exited with code 3.');
      assert.equal(reply, 'partial 1 partial 2 ', 'what was streamed stays');
      assert.ok(
        turn.stderrTail?.includes('acp-test-agent: crashing on purpose'),
        `the stderr tail lacks the crash line: ${JSON.stringify(turn.stderrTail)}`,
      );

      const next = await suite.ask('stream 2');
      assert.equal(next.turn.status, 'completed');
      assert.equal(next.reply, 'chunk 1 chunk 2 ');
    } finally {
      await suite.api.chat.restart();
    }
  });
});
