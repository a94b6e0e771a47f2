/**
 * Issue 5: many chats and their sessions — chats running at once stay separate; the chat list with
 * titles, rename and delete; an agent process that dies mid-turn (killed, or crashing) interrupts the
 * turn with its stderr tail and the chat goes on; a chat continues its ACP session after the agent
 * restarts (session/resume, or session/load for an agent without resume) without duplicating the
 * transcript; and when the session cannot be taken up the chat says so and "start fresh" recovers.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { AcpAgentsApi } from '../../src/extension';
import {
  activeChatId,
  activeThread,
  ask,
  begin,
  DEMO_AGENT_ID,
  DEMO_AGENT_NAME,
  demoAgentPids,
  eventually,
  freshChat,
  getApi,
  installPrompts,
  replyOf,
  Settings,
  showChatView,
  toolCallsOf,
  transcript,
  type ScriptedPrompts,
} from './support/harness';

/** A session file of the demo agent's state dir (TEST_AGENT_STATE_DIR). */
interface SessionRecord {
  readonly file: string;
  readonly sessionId: string;
  readonly turns: ReadonlyArray<{ readonly user: string; readonly reply: string }>;
}

function sessionRecords(stateDir: string): SessionRecord[] {
  if (!existsSync(stateDir)) {
    return [];
  }
  return readdirSync(stateDir)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => {
      const file = path.join(stateDir, name);
      try {
        const parsed = JSON.parse(readFileSync(file, 'utf8')) as Omit<SessionRecord, 'file'>;
        return [{ file, sessionId: parsed.sessionId, turns: parsed.turns ?? [] }];
      } catch {
        return []; // being written
      }
    });
}

/** The session records whose first turn's user text is `firstPrompt`. */
function sessionsStartedWith(stateDir: string, firstPrompt: string): SessionRecord[] {
  return sessionRecords(stateDir).filter((record) => record.turns[0]?.user === firstPrompt);
}

function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
}

describe('sessions: many chats, crashes and taking sessions up again (issue 5)', () => {
  let api: AcpAgentsApi;
  let prompts: ScriptedPrompts & { restore(): void };
  const settings = new Settings();
  let demoStateDir: string;

  before(async () => {
    api = await getApi();
    // Permission requests in these tests are answered inline.
    await showChatView();
    const demo = api.catalog.agents.agents.find((agent) => agent.id === DEMO_AGENT_ID);
    assert.ok(demo, 'the demo agent is not offered');
    const dir = demo.env['TEST_AGENT_STATE_DIR'];
    assert.ok(dir, 'the demo agent has no TEST_AGENT_STATE_DIR');
    demoStateDir = dir;
  });

  beforeEach(async () => {
    prompts = installPrompts(api);
    await api.rules.clear();
    await freshChat(api);
  });

  afterEach(async () => {
    prompts.restore();
    await settings.restore();
  });

  it('runs two chats at once and keeps them separate', async () => {
    const first = activeChatId(api);
    const hanging = await begin(api, 'hang');
    await eventually('the first chat to say "waiting "', () => replyOf(api, hanging.turnId) === 'waiting ');

    const second = await freshChat(api);
    const streamed = await ask(api, 'stream 30');
    assert.equal(streamed.turn.status, 'completed');
    assert.equal(streamed.reply, Array.from({ length: 30 }, (_, i) => `chunk ${i + 1} `).join(''));
    assert.deepEqual(
      transcript(api),
      [
        ['user', 'stream 30'],
        ['agent', streamed.reply],
      ],
      'the second chat holds only its own turn',
    );
    const running = Object.fromEntries(api.chat.chatList().map((chat) => [chat.chatId, chat.running]));
    assert.equal(running[first], true, 'the first chat still runs');
    assert.equal(running[second], false);

    await api.chat.switchChat(first);
    assert.deepEqual(
      transcript(api),
      [
        ['user', 'hang'],
        ['agent', 'waiting '],
      ],
      'the first chat holds only its own turn',
    );
    await api.chat.cancel();
    const { turn } = await hanging.done;
    assert.equal(turn.status, 'cancelled');
    await api.chat.switchChat(second);
    assert.equal(activeThread(api).turns.at(-1)?.status, 'completed', 'cancelling one chat leaves the other');
  });

  it('lists chats with titles, renames and deletes them', async () => {
    const first = activeChatId(api);
    const longPrompt = `a question that is long enough to need cutting down in the chat list ${unique('x')}`;
    await ask(api, longPrompt);
    const second = await freshChat(api);
    assert.equal(api.chat.chatList().find((chat) => chat.chatId === second)?.title, 'New chat');
    await ask(api, 'title');

    const list = api.chat.chatList();
    assert.equal(list[0]?.chatId, second, 'most recently used first');
    assert.equal(list[0]?.title, 'Test session title', "the agent's session title names the chat");
    assert.equal(list[0]?.agentId, DEMO_AGENT_ID);
    assert.equal(list[0]?.agentLabel, DEMO_AGENT_NAME);
    const firstTitle = list.find((chat) => chat.chatId === first)?.title;
    assert.equal(firstTitle, `${longPrompt.slice(0, 59)}…`, 'the first message, cut to 60 characters');

    await api.chat.handleMessage({ type: 'rename_chat', chatId: first, title: '  Renamed chat  ' });
    assert.equal(api.chat.chatList().find((chat) => chat.chatId === first)?.title, 'Renamed chat');
    await api.chat.handleMessage({ type: 'rename_chat', chatId: first, title: '' });
    assert.equal(
      api.chat.chatList().find((chat) => chat.chatId === first)?.title,
      `${longPrompt.slice(0, 59)}…`,
      'an empty name goes back to the derived title',
    );

    // Deleting the active chat moves to the most recent other chat.
    await api.chat.handleMessage({ type: 'delete_chat', chatId: second });
    assert.equal(
      api.chat.chatList().some((chat) => chat.chatId === second),
      false,
    );
    assert.equal(activeChatId(api), api.chat.chatList()[0]?.chatId);
    await api.chat.handleMessage({ type: 'delete_chat', chatId: first });
    assert.equal(
      api.chat.chatList().some((chat) => chat.chatId === first),
      false,
    );
  });

  it('interrupts the turn when the agent process is killed, with its stderr tail; retry succeeds', async () => {
    const pids = demoAgentPids();
    assert.equal(pids.length, 1, `expected one demo agent process, found ${JSON.stringify(pids)}`);
    const pid = pids[0]!;
    try {
      const first = await begin(api, 'tool');
      await eventually(
        'the permission request',
        () => toolCallsOf(api, first.turnId)[0]?.permission?.status === 'pending',
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
      const call = toolCallsOf(api, first.turnId)[0];
      assert.equal(call?.permission?.status, 'cancelled', 'the pending permission was settled');
      assert.equal(api.chat.currentStatus.state, 'error');
      assert.equal(api.chat.currentStatus.error?.kind, 'process_exited');

      // Retry sends the same prompt again to a new agent process.
      const retried = api.chat.handleMessage({ type: 'retry' });
      const retryTurnId = await eventually('the retried turn', () => {
        const turns = activeThread(api).turns;
        return turns.length === 2 && turns[1]!.id;
      });
      // The new process numbers its tool calls from call-1 again, so the request may land on the first
      // turn's entry (see the tool call id test below): answer it wherever it is.
      const permission = await eventually('the retried permission request', () => {
        const entry = activeThread(api).entries.find(
          (e) => e.kind === 'tool_call' && e.permission?.status === 'pending',
        );
        return entry?.kind === 'tool_call' && entry.permission;
      });
      await api.chat.handleMessage({
        type: 'answer_permission',
        key: permission.key,
        optionId: 'allow-once',
      });
      await retried;
      const turns = activeThread(api).turns;
      assert.equal(turns[1]?.status, 'completed');
      assert.equal(replyOf(api, retryTurnId), 'Edit allowed (the demo writes nothing).');
      assert.deepEqual(
        transcript(api).filter(([kind]) => kind === 'user'),
        [
          ['user', 'tool'],
          ['user', 'tool'],
        ],
      );
      assert.equal(api.chat.currentStatus.state, 'ready');
      const now = demoAgentPids();
      assert.equal(now.length, 1);
      assert.notEqual(now[0], pid, 'a new process answers');
    } finally {
      await api.chat.restart(); // forgets the crash, so later starts are not delayed
    }
  });

  it("keeps each turn's tool calls apart when a restarted agent reuses a tool call id", async () => {
    // The demo agent numbers tool calls per process (call-1, call-2, …); after a restart the resumed
    // session sees call-1 again. The new turn must get its own entry, the old one must stay as it was.
    const first = await begin(api, 'tool');
    const firstCall = await eventually('the first permission request', () => {
      const entry = toolCallsOf(api, first.turnId)[0];
      return entry?.permission?.status === 'pending' && entry;
    });
    await api.chat.handleMessage({
      type: 'answer_permission',
      key: firstCall.permission!.key,
      optionId: 'allow-once',
    });
    assert.equal((await first.done).reply, 'Edit allowed (the demo writes nothing).');

    await api.chat.restart();
    const second = await begin(api, 'tool');
    try {
      const secondCall = await eventually(
        'a tool call entry of the second turn with a pending permission',
        () => {
          const entry = toolCallsOf(api, second.turnId)[0];
          return entry?.permission?.status === 'pending' && entry;
        },
        5_000,
      ).catch((error: Error) => {
        const calls = activeThread(api).entries.flatMap((e) =>
          e.kind === 'tool_call'
            ? [`${e.id} turn ${e.turnId} ${e.toolCallId} ${e.status} permission ${e.permission?.status}`]
            : [],
        );
        throw new Error(`${error.message}; tool call entries: ${calls.join(' | ')}`);
      });
      await api.chat.handleMessage({
        type: 'answer_permission',
        key: secondCall.permission!.key,
        optionId: 'reject-once',
      });
      assert.equal((await second.done).reply, 'Edit rejected.');
      const old = toolCallsOf(api, first.turnId);
      assert.equal(old.length, 1);
      assert.equal(old[0]?.status, 'completed', "the first turn's tool call is unchanged");
      assert.equal(old[0]?.permission?.selectedOptionId, 'allow-once');
    } finally {
      await api.chat.cancel();
      await second.done.catch(() => {});
    }
  });

  it('interrupts the turn when the agent crashes mid-answer; the next message works', async () => {
    try {
      const { turn, reply } = await ask(api, 'crash');
      assert.equal(turn.status, 'interrupted');
      assert.equal(turn.error?.message, 'The agent exited with code 3.');
      assert.equal(reply, 'partial 1 partial 2 ', 'what was streamed stays');
      assert.ok(
        turn.stderrTail?.includes('acp-test-agent: crashing on purpose'),
        `the stderr tail lacks the crash line: ${JSON.stringify(turn.stderrTail)}`,
      );

      const next = await ask(api, 'stream 2');
      assert.equal(next.turn.status, 'completed');
      assert.equal(next.reply, 'chunk 1 chunk 2 ');
    } finally {
      await api.chat.restart();
    }
  });

  it('continues the chat session after the agent restarts (session/resume), without duplicating it', async () => {
    const opening = unique('resume-me');
    assert.equal((await ask(api, opening)).reply, `You said: ${opening}`);
    const [before] = demoAgentPids();

    await api.chat.restart();
    const [after] = demoAgentPids();
    assert.ok(after !== undefined && after !== before, 'the agent runs in a new process');
    const next = await ask(api, 'stream 2');
    assert.equal(next.turn.status, 'completed');

    assert.deepEqual(transcript(api), [
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
    const demo = api.catalog.agents.agents.find((agent) => agent.id === DEMO_AGENT_ID);
    assert.ok(demo);
    const stateDir = mkdtempSync(path.join(tmpdir(), 'acp-it-load-'));
    try {
      await settings.set('agents', [
        {
          name: 'Load only demo',
          command: demo.command,
          args: [...demo.args, '--variant=load-only'],
          env: { ELECTRON_RUN_AS_NODE: '1', TEST_AGENT_STATE_DIR: stateDir, TEST_AGENT_NO_RESUME: '1' },
        },
      ]);
      await eventually(
        'the load-only agent',
        () => api.catalog.agents.agents[0]?.id === 'agent:load-only-demo',
      );
      await freshChat(api);
      assert.equal(api.chat.viewState().selectedAgentId, 'agent:load-only-demo');

      const opening = unique('load-me');
      assert.equal((await ask(api, opening)).reply, `You said: ${opening}`);
      assert.equal((await ask(api, 'stream 1')).reply, 'chunk 1 ');
      await api.chat.restart();
      const next = await ask(api, 'stream 2');
      assert.equal(next.turn.status, 'completed');

      // session/load replays the history; the chat already has it and shows it once.
      assert.deepEqual(transcript(api), [
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
      await settings.restore();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('shows the resume problem when the session is gone, and "start fresh" recovers', async () => {
    const chatId = activeChatId(api);
    const opening = unique('forget-me');
    assert.equal((await ask(api, opening)).reply, `You said: ${opening}`);
    const [record] = await eventually('the session file', () => {
      const found = sessionsStartedWith(demoStateDir, opening);
      return found.length === 1 && found;
    });
    rmSync(record!.file);

    await api.chat.restart();
    const problem = await eventually('the resume problem', () => api.chat.viewState().chat?.resumeProblem);
    assert.ok(
      problem.startsWith(`${DEMO_AGENT_NAME} could not continue this chat's earlier session: `),
      `unexpected banner: ${problem}`,
    );
    assert.ok(problem.includes('Resource not found'), `unexpected banner: ${problem}`);
    await assert.rejects(
      api.chat.send('are you there?'),
      /Start a new session with this transcript to go on\./,
    );
    assert.equal(activeThread(api).turns.length, 1, 'nothing was sent');

    await api.chat.handleMessage({ type: 'start_fresh' });
    assert.equal(api.chat.viewState().chat?.resumeProblem, undefined, 'the banner is gone');
    const { turn, reply } = await ask(api, 'after a fresh start');
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
    assert.equal((await ask(api, 'and again')).reply, 'You said: and again');
  });
});
