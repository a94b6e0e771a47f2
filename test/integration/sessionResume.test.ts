/**
 * Issue 5: a chat continues its ACP session after the agent restarts (session/resume, or session/load for
 * an agent without resume) without duplicating the transcript; and when the session cannot be taken up
 * the chat says so once and goes on in a new session given the transcript.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DEMO_AGENT_ID, demoAgentPids, eventually } from './support/harness';
import { useDemoChats } from './support/demoChats';
import { sessionRecords, sessionsStartedWith, unique } from './support/demoSessions';

describe('sessions: taking up a chat session again (issue 5)', () => {
  // Permission requests in these tests are answered inline.
  const suite = useDemoChats({ chatView: true, clearRules: true });
  let demoStateDir: string;

  before(() => {
    const demo = suite.api.catalog.agents.agents.find((agent) => agent.id === DEMO_AGENT_ID);
    assert.ok(demo, 'the demo agent is not offered');
    const dir = demo.env['TEST_AGENT_STATE_DIR'];
    assert.ok(dir, 'the demo agent has no TEST_AGENT_STATE_DIR');
    demoStateDir = dir;
  });

  it('continues the chat session after the agent restarts (session/resume), without duplicating it', async () => {
    const opening = unique('resume-me');
    assert.equal((await suite.ask(opening)).reply, `You said: ${opening}`);
    const [before] = demoAgentPids();

    await suite.api.chat.restart();
    const [after] = demoAgentPids();
    assert.ok(after !== undefined && after !== before, 'the agent runs in a new process');
    const next = await suite.ask('stream 2');
    assert.equal(next.turn.status, 'completed');

    assert.deepEqual(suite.transcript(), [
      ['user', opening],
      ['agent', `You said: ${opening}`],
      ['user', 'stream 2'],
      ['agent', 'chunk 1 chunk 2 '],
    ]);
    const records = await eventually('the session file with both turns', () => {
      const found = sessionsStartedWith(demoStateDir, opening);
      return found.length === 1 && found[0]!.turns.length === 2 && found;
    });
    assert.deepEqual(
      records[0]!.turns.map((t) => t.user),
      [opening, 'stream 2'],
      'the new process continued the same ACP session',
    );
  });

  it('continues the chat with session/load for an agent without session/resume', async () => {
    const demo = suite.api.catalog.agents.agents.find((agent) => agent.id === DEMO_AGENT_ID);
    assert.ok(demo);
    const stateDir = mkdtempSync(path.join(tmpdir(), 'acp-it-load-'));
    try {
      await suite.settings.set('agents', [
        {
          name: 'Load only demo',
          command: demo.command,
          args: [...demo.args, '--variant=load-only'],
          env: { ELECTRON_RUN_AS_NODE: '1', TEST_AGENT_STATE_DIR: stateDir, TEST_AGENT_NO_RESUME: '1' },
        },
      ]);
      await eventually(
        'the load-only agent',
        () => suite.api.catalog.agents.agents[0]?.id === 'agent:load-only-demo',
      );
      await suite.freshChat();
      assert.equal(suite.api.chat.viewState().selectedAgentId, 'agent:load-only-demo');

      const opening = unique('load-me');
      assert.equal((await suite.ask(opening)).reply, `You said: ${opening}`);
      assert.equal((await suite.ask('stream 1')).reply, 'chunk 1 ');
      await suite.api.chat.restart();
      const next = await suite.ask('stream 2');
      assert.equal(next.turn.status, 'completed');

      // session/load replays the history; the chat already has it and shows it once.
      assert.deepEqual(suite.transcript(), [
        ['user', opening],
        ['agent', `You said: ${opening}`],
        ['user', 'stream 1'],
        ['agent', 'chunk 1 '],
        ['user', 'stream 2'],
        ['agent', 'chunk 1 chunk 2 '],
      ]);
      const records = await eventually('one session file with all three turns', () => {
        const found = sessionRecords(stateDir);
        return found.length === 1 && found[0]!.turns.length === 3 && found;
      });
      assert.deepEqual(
        records[0]!.turns.map((t) => t.user),
        [opening, 'stream 1', 'stream 2'],
      );
    } finally {
      await suite.settings.restore();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('says once that the session is gone and goes on in a new one that gets the transcript', async () => {
    const chatId = suite.chatId();
    const opening = unique('forget-me');
    assert.equal((await suite.ask(opening)).reply, `You said: ${opening}`);
    const [record] = await eventually('the session file', () => {
      const found = sessionsStartedWith(demoStateDir, opening);
      return found.length === 1 && found;
    });
    rmSync(record!.file);

    await suite.api.chat.restart();
    // No banner, no refusal: the chat is one chat and goes on.
    const { turn, reply } = await suite.ask('after a fresh start');
    assert.equal(turn.status, 'completed');
    // The new session gets the transcript with the first message.
    const match =
      /^You said: after a fresh start\n- resource acp-agents:\/transcripts\/(.+)\.md \((\d+) chars\)$/.exec(
        reply,
      );
    assert.ok(match, `unexpected reply: ${reply}`);
    assert.equal(match[1], chatId);
    assert.ok(Number(match[2]) > opening.length);
    // A second message goes without the transcript.
    assert.equal((await suite.ask('and again')).reply, 'You said: and again');
    // The earlier turns are still there: one chat.
    assert.equal(suite.thread().turns.length, 3);
  });
});
