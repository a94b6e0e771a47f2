import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ProbeSessions, type ProbeSessionMemory } from '../../../src/chat/probeSessions';
import { diagnoseAgent } from '../../../src/features/doctor/chat/agentDoctor';
import type { AgentSessionGroup } from '../../../src/protocol';
import { ChatHarness, testAgent, until } from '../support/chatHarness';

/** Five sessions the agent already had, listed two per page: three pages. */
const SEEDED = { TEST_AGENT_SEED_SESSIONS: '5', TEST_AGENT_LIST_PAGE_SIZE: '2' };

describe('chat: the agent sessions (session/list) in the chat list', () => {
  let chat: ChatHarness;
  afterEach(() => chat.dispose());

  /** The `agent_sessions` groups posted so far for `agentId`, oldest first. */
  const pages = (agentId: string): AgentSessionGroup[] =>
    chat.view.of('agent_sessions').flatMap((message) => message.groups.filter((g) => g.agentId === agentId));

  it('lists a running agent’s sessions page by page, with title, folder and time, newest first', async () => {
    chat = new ChatHarness({ agents: [testAgent('a', SEEDED)] });
    await chat.ready();
    await chat.controller.handleMessage({ type: 'list_agent_sessions' });
    const first = pages('a')[0];
    assert.ok(first, 'a first page');
    assert.equal(first.append, undefined);
    assert.equal(first.agentLabel, 'Test a');
    // The chat the view opened has a session too (newest): it comes first, matched to our chat.
    assert.equal(first.sessions.length, 2);
    assert.equal(first.sessions[0]?.chatId, chat.controller.windowChatId);
    assert.deepEqual(
      { title: first.sessions[1]?.title, cwd: first.sessions[1]?.cwd },
      { title: 'Seeded session 1', cwd: chat.dir },
    );
    assert.ok(Math.abs((first.sessions[1]?.updatedAt ?? 0) - (Date.now() - 3_600_000)) < 60_000);
    assert.equal(first.nextCursor, 'page-2');

    await chat.controller.handleMessage({ type: 'list_agent_sessions', agentId: 'a', cursor: 'page-2' });
    await chat.controller.handleMessage({ type: 'list_agent_sessions', agentId: 'a', cursor: 'page-4' });
    const [, second, third] = pages('a');
    assert.equal(second?.append, true);
    assert.deepEqual(
      [...(second?.sessions ?? []), ...(third?.sessions ?? [])].map((s) => s.title),
      ['Seeded session 2', 'Seeded session 3', 'Seeded session 4', 'Seeded session 5'],
    );
    assert.equal(third?.nextCursor, undefined, 'no more pages');
    assert.deepEqual(chat.view.of('error'), []);
  });

  it('opens a session as a chat that loads its history once; opening it again switches to that chat', async () => {
    chat = new ChatHarness({ agents: [testAgent('a', SEEDED)] });
    await chat.ready();
    const firstChat = chat.controller.windowChatId;
    await chat.controller.handleMessage({ type: 'list_agent_sessions' });
    await chat.controller.handleMessage({ type: 'list_agent_sessions', agentId: 'a', cursor: 'page-2' });
    const sessionId = 'sess-5eed000000000002';
    await Promise.all([
      chat.controller.handleMessage({ type: 'open_agent_session', agentId: 'a', sessionId }),
      chat.controller.handleMessage({ type: 'open_agent_session', agentId: 'a', sessionId }),
    ]);
    const opened = chat.controller.windowChatId;
    assert.notEqual(opened, firstChat);
    assert.equal(
      chat.transcript(),
      'user:First question of session 2|agent:First answer of session 2.|' +
        'user:Second question of session 2|agent:Second answer of session 2.',
    );
    const summary = chat.controller.chatList().find((c) => c.chatId === opened);
    assert.equal(summary?.title, 'Seeded session 2');
    assert.equal(chat.controller.chatList().length, 2, 'a double click opens one chat');

    // It goes on in the chat, and the session's row names our chat from now on.
    await chat.send('hello again');
    assert.match(chat.transcript(), /user:hello again\|agent:You said: hello again$/);
    await chat.controller.switchChat(firstChat);
    await chat.controller.handleMessage({ type: 'open_agent_session', agentId: 'a', sessionId });
    assert.equal(chat.controller.windowChatId, opened, 'switched to our chat, not a second copy');
    assert.equal(chat.transcript().split('|').length, 6, 'the history is shown once');
    await chat.controller.handleMessage({ type: 'list_agent_sessions' });
    const latest = pages('a').at(-1);
    assert.equal(latest?.sessions[0]?.sessionId, sessionId, 'the session just used is the newest');
    assert.equal(latest?.sessions[0]?.chatId, opened);
    assert.deepEqual(chat.view.of('error'), []);
  });

  it('says so when a session is resumed without its history (an agent without session/load)', async () => {
    chat = new ChatHarness({ agents: [testAgent('a', { ...SEEDED, TEST_AGENT_NO_LOAD: '1' })] });
    await chat.ready();
    await chat.controller.handleMessage({
      type: 'open_agent_session',
      agentId: 'a',
      sessionId: 'sess-5eed000000000001',
    });
    assert.equal(chat.transcript(), '', 'resume sends no history');
    const notices = (): string[] =>
      chat.view.events().flatMap((event) => (event.type === 'notice' ? [event.notice.title] : []));
    await until(() => notices().length > 0, 'the notice');
    assert.deepEqual(notices(), [
      'Demo agent (offline) resumed this session without sending its history: earlier messages are not shown.',
    ]);
    await chat.send('hello again');
    assert.match(chat.transcript(), /^user:hello again\|agent:You said: hello again$/);
    assert.deepEqual(chat.view.of('error'), []);
  });

  it('the title follows session_info_update', async () => {
    chat = new ChatHarness({ agents: [testAgent('a', SEEDED)] });
    await chat.ready();
    await chat.controller.handleMessage({
      type: 'open_agent_session',
      agentId: 'a',
      sessionId: 'sess-5eed000000000001',
    });
    await chat.send('title');
    const opened = chat.controller.windowChatId;
    await until(
      () => chat.controller.chatList().find((c) => c.chatId === opened)?.title === 'Test session title',
      'the agent’s new title',
    );
  });

  it('an unknown session says so and leaves no chat behind; agents that cannot list are not asked', async () => {
    chat = new ChatHarness({
      agents: [testAgent('a', SEEDED), testAgent('m', { TEST_AGENT_MINIMAL: '1' })],
    });
    await chat.ready();
    await chat.controller.handleMessage({ type: 'open_agent_session', agentId: 'a', sessionId: 'sess-nope' });
    assert.match(chat.view.of('error').at(-1)?.message ?? '', /not found/i);
    assert.equal(chat.controller.chatList().length, 1);

    await chat.controller.selectAgent('m');
    await chat.controller.handleMessage({ type: 'list_agent_sessions' });
    assert.deepEqual(
      chat.view.of('agent_sessions').flatMap((m) => m.groups.map((g) => g.agentId)),
      ['a'],
    );
    await chat.controller.handleMessage({ type: 'list_agent_sessions', agentId: 'm' });
    assert.match(chat.view.of('error').at(-1)?.message ?? '', /cannot list its sessions/);
  });

  it('a bad cursor is the agent’s error on the group, not a crash', async () => {
    chat = new ChatHarness({ agents: [testAgent('a', SEEDED)] });
    await chat.ready();
    await chat.controller.handleMessage({ type: 'list_agent_sessions', agentId: 'a', cursor: 'bogus' });
    const group = pages('a').at(-1);
    assert.deepEqual(group?.sessions, []);
    assert.match(group?.error ?? '', /Invalid params/);
  });
});

describe('chat: the sessions the agent check opened', () => {
  let chat: ChatHarness | undefined;
  let stateDir: string;
  beforeEach(() => {
    stateDir = mkdtempSync(path.join(tmpdir(), 'acp-probe-state-'));
  });
  afterEach(async () => {
    await chat?.dispose();
    chat = undefined;
    rmSync(stateDir, { recursive: true, force: true });
  });

  /** A globalState stand-in. */
  function memory(): ProbeSessionMemory {
    const values = new Map<string, unknown>();
    return { get: (key) => values.get(key), update: async (key, value) => void values.set(key, value) };
  }

  it('are left out of the list of an agent that can neither close nor delete them (no "Untitled session")', async () => {
    // Claude Code's adapter 0.16 lists its sessions but cannot end one: the check's session stays on its list.
    const agent = testAgent('a', { TEST_AGENT_STATE_DIR: stateDir, TEST_AGENT_NO_CLOSE: '1' });
    const probes = new ProbeSessions(memory());
    chat = new ChatHarness({ agents: [agent], probeSessions: probes });
    const opened: string[] = [];
    const diagnosis = await diagnoseAgent(agent, 'configured', {
      cwd: chat.dir,
      onProbeSession: (agentId, sessionId) => {
        opened.push(sessionId);
        void probes.remember(agentId, sessionId);
      },
    });
    assert.ok(diagnosis.session?.ok, JSON.stringify(diagnosis.session));
    assert.equal(opened.length, 1, 'the check opened one session and said so');
    assert.ok(probes.has('a', opened[0]!));
    const harness = chat;
    await harness.ready();
    await harness.controller.handleMessage({ type: 'list_agent_sessions' });
    const listed = harness.view
      .of('agent_sessions')
      .flatMap((message) => message.groups.flatMap((group) => group.sessions.map((s) => s.sessionId)));
    assert.equal(listed.length, 1, `only the chat's own session is listed: ${listed.join(', ')}`);
    assert.ok(!listed.includes(opened[0]!), 'the check’s session is not listed');
  });

  it('are ended where the agent can, so they are not on its list at all', async () => {
    const agent = testAgent('a', { TEST_AGENT_STATE_DIR: stateDir });
    const opened: string[] = [];
    await diagnoseAgent(agent, 'configured', {
      cwd: stateDir,
      onProbeSession: (_agentId, sessionId) => opened.push(sessionId),
    });
    assert.equal(opened.length, 1);
    assert.deepEqual(readdirSync(stateDir), [], 'the check’s session was deleted (session/delete)');
  });
});
