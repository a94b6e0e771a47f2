import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { useTempFolder } from '../support/tempFolder';
import { ChatHarness, testAgent, until } from './support/chatHarness';

describe('chats that survive: several chats, the journal, resume and retry', () => {
  let chat: ChatHarness | undefined;
  afterEach(async () => {
    await chat?.dispose();
    chat = undefined;
  });
  const agentState = useTempFolder('acp-agent-state-');

  it('renders every chat from the journal after a restart, before and without the agent', async () => {
    chat = new ChatHarness({ agents: [testAgent('a', { TEST_AGENT_STATE_DIR: agentState.path })] });
    await chat.ready();
    await chat.send('stream 2');
    await chat.controller.newChat();
    await chat.send('hello there');
    chat = await chat.restarted({ agents: [testAgent('a', { TEST_AGENT_STATE_DIR: agentState.path })] });
    await chat.controller.restored;
    // No agent has been started: the transcript comes from the journal alone.
    assert.equal(chat.controller.currentStatus.state, 'idle');
    assert.deepEqual(
      chat.controller.chatList().map((c) => c.title),
      ['hello there', 'stream 2'],
    );
    assert.equal(chat.transcript(), 'user:hello there|agent:You said: hello there');
    await chat.controller.switchChat(chat.controller.chatList()[1]?.chatId ?? '');
    assert.equal(chat.transcript(), 'user:stream 2|agent:chunk 1 chunk 2 ');
  });

  it("journals a failed turn's details (code and data) and shows them again after a restart", async () => {
    chat = new ChatHarness({ agents: [testAgent('a', { TEST_AGENT_STATE_DIR: agentState.path })] });
    await chat.ready();
    await chat.send('error -32603 Upstream failed data {"status":502,"requestId":"req-1"}');
    const expected = {
      kind: 'internal',
      message: 'Upstream failed',
      code: -32603,
      data: '{\n  "status": 502,\n  "requestId": "req-1"\n}',
    };
    assert.deepEqual(chat.controller.viewState().chat?.thread.turns.at(-1)?.error, expected);
    chat = await chat.restarted({ agents: [testAgent('a', { TEST_AGENT_STATE_DIR: agentState.path })] });
    await chat.controller.restored;
    assert.deepEqual(chat.controller.viewState().chat?.thread.turns.at(-1)?.error, expected);
  });

  it('continues an old chat with session/load after a restart, without duplicating the replayed history', async () => {
    chat = new ChatHarness({
      agents: [testAgent('a', { TEST_AGENT_STATE_DIR: agentState.path, TEST_AGENT_MINIMAL: '' })],
    });
    await chat.ready();
    await chat.send('stream 2');
    chat = await chat.restarted({ agents: [testAgent('a', { TEST_AGENT_STATE_DIR: agentState.path })] });
    await chat.ready();
    await chat.send('stream 1');
    assert.equal(chat.transcript(), 'user:stream 2|agent:chunk 1 chunk 2 |user:stream 1|agent:chunk 1 ');
    assert.equal(chat.view.notices().length, 0, 'taken up quietly: nothing to say');
  });

  it('says so once in one line when the old session cannot be continued, and goes on in a new one with the transcript', async () => {
    // Without a state dir the agent forgets its sessions when it exits.
    chat = new ChatHarness({ agents: [testAgent('a')] });
    await chat.ready();
    await chat.send('stream 1');
    const oldSession = sessionOf(chat);
    chat = await chat.restarted({ agents: [testAgent('a')] });
    await chat.ready();
    // The notice goes to the view with the thread's next post, which may come after the new session answers.
    await until(() => (chat?.view.notices().length ?? 0) > 0, 'the notice');
    const notices = chat.view.notices();
    assert.equal(notices.length, 1, 'said once');
    assert.equal(notices[0]?.severity, 'info');
    assert.match(
      notices[0]?.title ?? '',
      // The agent as the user knows it (its label), not the name its program gives itself.
      /^Test a could not continue this chat's earlier session: Resource not found\. The chat goes on in a new session that is given the conversation so far\.$/,
    );
    assert.equal(notices[0]?.title.includes('\n'), false, 'one line');
    // The agent's own answer is kept in the log (the session is gone: -32002), not re-wrapped as "not supported".
    const logged = chat.logger.messages('warn').find((line) => line.includes('earlier session')) ?? '';
    assert.match(
      logged,
      /\[not_found, code -32002\]\n {2}data: \{\n {4}"sessionId": "sess-[0-9a-f]+"\n {2}\}$/,
    );
    assert.notEqual(sessionOf(chat), oldSession, 'a new session');
    assert.deepEqual(chat.view.of('error'), [], 'no banner, no error: the chat goes on');
    assert.equal(chat.controller.currentStatus.state, 'ready');

    await chat.send('what did we do?');
    // One chat: the old turns and the new one; the agent (echo) reports the transcript it was given.
    assert.match(
      chat.transcript(),
      /^user:stream 1\|agent:chunk 1 \|user:what did we do\?\|agent:You said: what did we do\?\n- resource acp-agents:\/transcripts\/.+\.md \(\d+ chars\)$/,
    );
    // Only once: the prompt after carries no transcript again.
    await chat.send('and now?');
    assert.match(chat.transcript(), /\|user:and now\?\|agent:You said: and now\?$/);
    assert.equal(chat.view.notices().length, 1, 'still said once, two turns later');
  });

  it('gives the transcript to the new session even after another reload before the next message', async () => {
    chat = new ChatHarness({ agents: [testAgent('a')] });
    await chat.ready();
    await chat.send('stream 1');
    chat = await chat.restarted({ agents: [testAgent('a', { TEST_AGENT_STATE_DIR: agentState.path })] });
    await chat.ready(); // the old session is gone: a new one, owed the transcript
    chat = await chat.restarted({ agents: [testAgent('a', { TEST_AGENT_STATE_DIR: agentState.path })] });
    await chat.ready(); // the new session is taken up; the transcript is still owed
    await chat.send('what did we do?');
    assert.match(
      chat.transcript(),
      /\|agent:You said: what did we do\?\n- resource acp-agents:\/transcripts\/.+\.md \(\d+ chars\)$/,
    );
  });

  it('keeps the partial text when the agent crashes mid-turn and continues after a retry', async () => {
    chat = new ChatHarness({ agents: [testAgent('a', { TEST_AGENT_STATE_DIR: agentState.path })] });
    await chat.ready();
    await chat.send('stream 1');
    await chat.send('crash');
    await until(() => chat?.controller.currentStatus.state === 'error', 'crash reported');
    const status = chat.controller.currentStatus;
    assert.equal(status.error?.kind, 'process_exited');
    assert.ok(status.error?.stderrTail?.includes('acp-test-agent: crashing on purpose'));
    const turns = chat.controller.viewState().chat?.thread.turns ?? [];
    assert.deepEqual(
      turns.map((t) => t.status),
      ['completed', 'interrupted'],
    );
    assert.ok(turns[1]?.stderrTail?.includes('acp-test-agent: crashing on purpose'));
    assert.equal(chat.transcript(), 'user:stream 1|agent:chunk 1 |user:crash|agent:partial 1 partial 2 ');

    // The next message restarts the agent (after a short backoff) and takes up the session with session/load.
    await chat.send('stream 2');
    assert.equal(
      chat.transcript(),
      'user:stream 1|agent:chunk 1 |user:crash|agent:partial 1 partial 2 |user:stream 2|agent:chunk 1 chunk 2 ',
    );
    assert.equal(chat.controller.currentStatus.state, 'ready');
  });

  it('retries the last prompt of an interrupted turn', async () => {
    chat = new ChatHarness({ agents: [testAgent('a', { TEST_AGENT_STATE_DIR: agentState.path })] });
    await chat.ready();
    await chat.send('stream 1');
    const sending = chat.send('hang');
    await until(() => (chat?.transcript() ?? '').endsWith('agent:waiting '));
    process.kill(pidOf(chat), 'SIGKILL');
    await sending;
    const retrying = chat.controller.handleMessage({ type: 'retry' });
    await until(() => (chat?.transcript() ?? '').split('user:hang').length === 3, 'retried');
    await chat.controller.cancel();
    await retrying;
    assert.deepEqual(
      chat.controller.viewState().chat?.thread.turns.map((t) => t.status),
      ['completed', 'interrupted', 'cancelled'],
    );
  });

  it('closing the window mid-turn saves what was shown, writes nothing after, and reads the turn back as cut off', async () => {
    chat = new ChatHarness({ agents: [testAgent('a')] });
    await chat.ready();
    const sending = chat.send('hang');
    // The chunk is shown at once and journaled with the next batch: the close must write it.
    await until(() => (chat?.transcript() ?? '').endsWith('agent:waiting '), 'the answer to start');
    await chat.controller.shutdown();
    const journal = path.join(chat.storageDir, 'chats', `${chat.controller.viewState().chat?.chatId}.jsonl`);
    const saved = readFileSync(journal, 'utf8');
    // Stopping the agent ends the turn here; then anything that would write has had its chance.
    await sending;
    await chat.controller.shutdown();
    assert.equal(readFileSync(journal, 'utf8'), saved, 'nothing written after the window closed');

    chat = await chat.restarted({ agents: [testAgent('a')] });
    await chat.controller.restored;
    assert.equal(chat.transcript(), 'user:hang|agent:waiting ');
    const turns = chat.controller.viewState().chat?.thread.turns ?? [];
    assert.deepEqual(
      turns.map((turn) => [turn.status, turn.error?.message]),
      [['interrupted', 'VS Code closed during the answer.']],
    );
  });

  it('reloading while a permission is asked reads the request back as cancelled: no answer is offered for it', async () => {
    chat = new ChatHarness({ agents: [testAgent('a')] });
    await chat.ready();
    void chat.send('permissions 3');
    const asked = (harness: ChatHarness) =>
      harness.controller
        .viewState()
        .chat?.thread.entries.flatMap((entry) =>
          entry.kind === 'tool_call' && entry.permission
            ? [[entry.title, entry.permission.status, entry.permission.waiting]]
            : [],
        );
    await until(() => asked(chat!)?.[0]?.[2] === 2, 'the first of three permissions to be asked');
    chat = await chat.restarted({ agents: [testAgent('a')] });
    await chat.controller.restored;
    // The one shown is cancelled, and says no more of "2 more requests"; the two behind it were never shown.
    assert.deepEqual(asked(chat), [['Step 1', 'cancelled', undefined]]);
    const thread = chat.controller.viewState().chat?.thread;
    assert.deepEqual(
      thread?.turns.map((turn) => turn.status),
      ['interrupted'],
    );
  });

  it('streams two chats at the same time without mixing them', async () => {
    chat = new ChatHarness({ agents: [testAgent('a', { TEST_AGENT_CHUNK_DELAY_MS: '5' })] });
    await chat.ready();
    const first = chat.send('stream 20');
    const firstId = chat.controller.viewState().chat?.chatId ?? '';
    await until(() => (chat?.transcript() ?? '').includes('chunk 2 '));
    await chat.controller.newChat();
    await chat.send('stream 3 thoughts');
    await first;
    assert.equal(
      chat.transcript(),
      'user:stream 3 thoughts|thought:thinking 1 thinking 2 |agent:chunk 1 chunk 2 chunk 3 ',
    );
    await chat.controller.switchChat(firstId);
    assert.equal(
      chat.transcript(),
      `user:stream 20|agent:${Array.from({ length: 20 }, (_, i) => `chunk ${i + 1} `).join('')}`,
    );
  });

  it('switches agent in an empty chat, and starts a new chat for another agent otherwise', async () => {
    chat = new ChatHarness({ agents: [testAgent('a'), testAgent('b')] });
    await chat.ready();
    await chat.controller.handleMessage({ type: 'select_agent', agentId: 'b' });
    assert.equal(chat.controller.chatList().length, 1);
    assert.equal(chat.controller.viewState().selectedAgentId, 'b');
    await chat.send('stream 1');
    await chat.controller.handleMessage({ type: 'select_agent', agentId: 'a' });
    assert.deepEqual(
      chat.controller.chatList().map((c) => [c.agentId, c.title]),
      [
        ['a', 'New chat'],
        ['b', 'stream 1'],
      ],
    );
    await chat.controller.handleMessage({ type: 'select_agent', agentId: 'nope' });
    assert.match(chat.view.of('error').at(-1)?.message ?? '', /Unknown agent nope/);
  });

  it('renames and deletes chats, deleting their journals', async () => {
    chat = new ChatHarness({ agents: [testAgent('a')] });
    await chat.ready();
    await chat.send('stream 1');
    const id = chat.controller.viewState().chat?.chatId ?? '';
    await chat.controller.handleMessage({ type: 'rename_chat', chatId: id, title: 'My chat' });
    assert.equal(chat.controller.chatList()[0]?.title, 'My chat');
    const journalFile = path.join(chat.storageDir, 'chats', `${id}.jsonl`);
    await until(() => existsSync(journalFile));
    await chat.controller.handleMessage({ type: 'delete_chat', chatId: id });
    assert.equal(existsSync(journalFile), false);
    assert.equal(chat.controller.chatList().length, 1);
    assert.notEqual(chat.controller.viewState().chat?.chatId, id);
  });

  it('keeps only as many chats as the retention allows', async () => {
    chat = new ChatHarness({ agents: [testAgent('a')], retention: { maxChats: 2, maxBytes: 10_000_000 } });
    await chat.ready();
    await chat.send('stream 1');
    await chat.controller.newChat();
    await chat.send('stream 2');
    await chat.controller.newChat();
    await until(() => chat?.controller.chatList().length === 2, 'oldest chat deleted');
    await until(
      () =>
        readdirSync(path.join(chat?.storageDir ?? '', 'chats')).filter((f) => f.endsWith('.jsonl')).length ===
        2,
    );
    assert.deepEqual(
      chat.controller.chatList().map((c) => c.title),
      ['New chat', 'stream 2'],
    );
  });
});

function pidOf(harness: ChatHarness): number {
  const line = harness.logger.messages('info').findLast((m) => m.startsWith('Starting '));
  const match = /\(pid (\d+)\)/.exec(line ?? '');
  return Number(match?.[1]);
}

/** The agent session of the view's chat. */
function sessionOf(chat: ChatHarness): string | undefined {
  return chat.controller.turns.sessionIdOf(chat.controller.windowSlot);
}
