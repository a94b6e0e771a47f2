import { strict as assert } from 'node:assert';
import {
  ChatHarness,
  chatListsOf,
  RecordingView,
  testAgent,
  until,
  useReadyChats,
} from './support/chatHarness';
import { ownedPerTest } from '../support/ownedPerTest';

describe('chat controller (host side of the chat view)', () => {
  const owned = ownedPerTest();
  const readyChat = useReadyChats();

  it('tells the status bar when the window’s chat starts and ends a turn, and its agent’s state', async () => {
    const chat = await readyChat({ agents: [testAgent('a')] });
    const working: boolean[] = [];
    const states: string[] = [];
    chat.controller.onWorking((on) => working.push(on));
    chat.controller.onStatus((status) => states.push(status.state));
    await chat.send('hello');
    await until(() => working.length === 2, 'the turn started and ended');
    assert.deepEqual(working, [true, false]);
    await chat.controller.restart();
    await until(() => states.includes('ready'), 'the agent is ready again');
    assert.deepEqual(states, ['idle', 'starting', 'ready'], 'stopped, starting, ready: each said');
  });

  it('posts nothing before ready, then a full snapshot, then the agent status', async () => {
    const chat = owned(new ChatHarness({ agents: [testAgent('a')] }));
    await chat.controller.restored;
    assert.equal(chat.view.messages.length, 0);
    await chat.ready();
    const first = chat.view.messages.at(0);
    assert.ok(first?.type === 'snapshot');
    assert.deepEqual(first.view.agents, [{ id: 'a', label: 'Test a' }]);
    assert.equal(first.view.selectedAgentId, 'a');
    assert.equal(first.view.chats?.length, 1);
    assert.deepEqual(
      chat.view.of('agent_status').map((m) => m.status),
      [
        // The name the user gave the agent, from start to ready — not the one the program gives itself.
        { state: 'starting', agentName: 'Test a' },
        {
          state: 'ready',
          agentName: 'Test a',
          promptCapabilities: { image: true, embeddedContext: true },
        },
      ],
    );
  });

  it('streams a prompt into the view as coalesced thread events', async () => {
    const chat = await readyChat({ agents: [testAgent('a')] });
    await chat.send('stream 2000');
    const expected = Array.from({ length: 2000 }, (_, i) => `chunk ${i + 1} `).join('');
    assert.equal(chat.transcript(), `user:stream 2000|agent:${expected}`);
    const events = chat.view.events();
    const added = events.find((e) => e.type === 'entry_added' && e.entry.kind === 'agent');
    assert.ok(added?.type === 'entry_added' && 'text' in added.entry);
    const appended = events
      .flatMap((e) => (e.type === 'text_appended' && e.entryId === added.entry.id ? [e.text] : []))
      .join('');
    // The view rebuilt from the posted events holds the same text as the host's thread.
    assert.equal(added.entry.text + appended, expected);
    // 2000 chunks did not become 2000 postMessages.
    assert.ok(chat.view.of('thread_events').length < 200, `${chat.view.of('thread_events').length} posts`);
  });

  it('posts a turn’s start with the message that started it, so the view never shows the turn without it', async () => {
    const chat = await readyChat({ agents: [testAgent('a')] });
    await chat.send('hello');
    await until(() => chat.view.events().some((e) => e.type === 'turn_ended'), 'the turn ended');
    const started = chat.view
      .of('thread_events')
      .find((m) => m.events.some((e) => e.type === 'turn_started'));
    assert.ok(started, 'the turn start was posted');
    // The view takes the pending message away when the turn starts: its entry must come in the same message.
    assert.ok(
      started.events.some(
        (e) => e.type === 'entry_added' && e.entry.kind === 'user' && e.entry.text === 'hello',
      ),
      `the turn start came without the message: ${JSON.stringify(started.events.map((e) => e.type))}`,
    );
  });

  it('posts the chat list and the save problem only when they changed: a send repeats neither', async () => {
    const chat = await readyChat({ agents: [testAgent('a')] });
    const from = chat.view.messages.length;
    const before = chat.view.chatLists().at(-1);
    await chat.send('stream 3');
    const sent = chat.view.messages.slice(from);
    const saveProblems = sent
      .filter((message) => message.type === 'save_problem')
      .map((message) => JSON.stringify(message));
    const held = chatListsOf(sent, before);
    const lists = held.map((list) => JSON.stringify(list));
    for (const [what, posted] of [
      ['save_problem', saveProblems],
      ['the chat list', lists],
    ] as const) {
      const repeats = posted.filter((text, index) => index > 0 && text === posted[index - 1]);
      assert.deepEqual(repeats, [], `${what} posted again unchanged`);
    }
    assert.ok(
      !sent.some((message) => message.type === 'chats'),
      'a turn changes one chat of the list: only that chat goes, not the whole list again',
    );
    // Each change still goes: the list showed the chat running, then ended where the host's chat is.
    const running = held.map((list) => list[0]?.running);
    assert.ok(running.includes(true), 'the running chat was listed');
    assert.equal(running.at(-1), false);
    assert.deepEqual(held.at(-1), chat.controller.viewState().chats, 'the page holds the host’s list');
  });

  it("shows an agent's refusal of a view action with its code in the alert's details, and logs it", async () => {
    const chat = await readyChat({ agents: [testAgent('a')] });
    await chat.send('stream 1');
    await chat.controller.handleMessage({ type: 'set_mode', modeId: 'warp' });
    const alert = chat.view.of('error').at(-1);
    assert.ok(alert, 'an alert was posted');
    assert.equal(alert.details?.kind, 'invalid_params');
    assert.equal(alert.details?.code, -32602);
    assert.equal(alert.details?.message, alert.message);
    assert.ok(
      chat.logger
        .messages('error')
        .some(
          (line) => line.startsWith('set_mode failed: ') && line.includes('[invalid_params, code -32602]'),
        ),
      chat.logger.messages('error').join('\n'),
    );
  });

  it('answers an invalid view message with an error and keeps working', async () => {
    const chat = await readyChat({ agents: [testAgent('a')] });
    await chat.controller.handleMessage({ type: 'send' });
    await chat.controller.handleMessage({ type: 'launch_missiles' });
    assert.equal(chat.view.of('error').length, 2);
    assert.match(chat.view.of('error')[0]?.message ?? '', /^The chat view sent an invalid message \(text: /);
    assert.match(chat.view.of('error')[1]?.message ?? '', /^The chat view sent an invalid message \(type: /);
    assert.equal(chat.logger.messages('warn').length, 2);
    await chat.send('stream 1');
    assert.equal(chat.transcript(), 'user:stream 1|agent:chunk 1 ');
  });

  it('resolves a permission answered in the view', async () => {
    const chat = await readyChat({ agents: [testAgent('a')] });
    const sending = chat.send('tool');
    await until(() => chat.view.askedPermission());
    await chat.controller.handleMessage({
      type: 'answer_permission',
      key: 'perm-1',
      optionId: 'allow-always',
    });
    await sending;
    assert.equal(
      chat.transcript(),
      'user:tool|tool_call:Edit README.md|agent:Edit allowed (the demo writes nothing).',
    );
  });

  it('cancels a running turn from the view', async () => {
    const chat = await readyChat({ agents: [testAgent('a')] });
    const sending = chat.send('hang');
    await until(() => chat.view.events().some((e) => e.type === 'entry_added' && e.entry.kind === 'agent'));
    await chat.controller.handleMessage({ type: 'cancel' });
    await sending;
    const ended = chat.view.events().find((e) => e.type === 'turn_ended');
    assert.ok(ended?.type === 'turn_ended');
    assert.equal(ended.turn.status, 'cancelled');
  });

  it('sends a message posted right after New Chat to the new chat, though the chat it left still runs', async () => {
    const chat = await readyChat({ agents: [testAgent('a')] });
    const hanging = chat.send('hang');
    await until(() => chat.view.events().some((e) => e.type === 'entry_added' && e.entry.kind === 'agent'));
    const left = chat.controller.windowChatId;
    // Posted together, as a user who clicks New Chat and types at once: neither waits for the other.
    const opened = chat.controller.handleMessage({ type: 'new_chat' });
    const sent = chat.send('echo right after');
    await Promise.all([opened, sent]);
    assert.notEqual(chat.controller.windowChatId, left, 'the view moved to a new chat');
    assert.deepEqual(
      chat.view.of('error'),
      [],
      'nothing refused (the chat left is busy, the new one is not)',
    );
    assert.match(chat.transcript(), /^user:echo right after\|agent:/);
    await chat.controller.handleMessage({ type: 'switch_chat', chatId: left });
    assert.equal(chat.transcript().split('|')[0], 'user:hang', 'the chat left keeps only its own turn');
    await chat.controller.handleMessage({ type: 'cancel' });
    await hanging;
  });

  it('sends a message posted right after deleting the chat shown to the chat the view moves to', async () => {
    const chat = await readyChat({ agents: [testAgent('a')] });
    await chat.send('first chat');
    const deleted = chat.controller.windowChatId;
    const removing = chat.controller.handleMessage({ type: 'delete_chat', chatId: deleted });
    const sent = chat.send('echo after the delete');
    await Promise.all([removing, sent]);
    assert.notEqual(chat.controller.windowChatId, deleted);
    assert.deepEqual(chat.view.of('error'), []);
    assert.match(chat.transcript(), /^user:echo after the delete\|agent:/);
  });

  it('shows auth required with the sign-in methods, and sends the waiting prompt after sign-in', async () => {
    const chat = await readyChat({ agents: [testAgent('a', { TEST_AGENT_REQUIRE_AUTH: '1' })] });
    assert.deepEqual(chat.controller.currentStatus, {
      state: 'error',
      agentName: 'Test a',
      error: { kind: 'auth_required', message: 'Authentication required', code: -32000 },
      authMethods: [{ id: 'test-login', name: 'Test login', description: 'Signs in to the test agent' }],
    });
    await chat.send('stream 2');
    assert.equal(chat.transcript(), '');
    await chat.controller.handleMessage({ type: 'authenticate', methodId: 'test-login' });
    assert.equal(chat.controller.currentStatus.state, 'ready');
    assert.equal(chat.transcript(), 'user:stream 2|agent:chunk 1 chunk 2 ');
  });

  it('starts no agent in an untrusted workspace and says why', async () => {
    const chat = await readyChat({ agents: [testAgent('a')], trusted: false });
    await chat.send('stream 1');
    assert.deepEqual(chat.controller.currentStatus, {
      state: 'error',
      agentName: 'Test a',
      error: {
        kind: 'untrusted',
        message:
          'This workspace is not trusted, so no agent is started: an agent can read, write and run anything here. Trust the workspace to chat.',
      },
    });
    assert.equal(chat.transcript(), '');
    assert.equal(chat.logger.messages('info').filter((m) => m.startsWith('Starting ')).length, 0);
  });

  it('stops an agent that is no longer configured', async () => {
    const agents = [testAgent('a'), testAgent('b')];
    const chat = await readyChat({ agents });
    assert.equal(chat.controller.currentStatus.state, 'ready');
    agents.splice(0, 1);
    chat.controller.agentsChanged();
    await until(
      () => chat.logger.messages('info').some((m) => m.startsWith('Agent stopped')),
      'agent a stopped',
    );
    assert.deepEqual(
      chat.view
        .of('snapshot')
        .at(-1)
        ?.view.agents.map((agent) => agent.id),
      ['b'],
    );
  });

  it('reports an agent that cannot start', async () => {
    const chat = await readyChat({
      agents: [{ id: 'broken', label: 'Broken', command: 'no-such-acp-agent', args: [], env: {} }],
    });
    assert.equal(chat.controller.currentStatus.state, 'error');
    // Worded as the agent doctor words it: it never started, so it did not "exit".
    assert.equal(chat.controller.currentStatus.error?.kind, 'not_installed');
    assert.equal(chat.controller.currentStatus.error?.message, 'no-such-acp-agent was not found on PATH.');
    // Each send says it again, every time, in the one card (its status is sent afresh: the view gives the
    // message back to the composer); no second, red alert says the same.
    const statuses = (): number =>
      chat.view.of('agent_status').filter((message) => message.status.state === 'error').length;
    const before = statuses();
    await chat.send('hello');
    const afterFirst = statuses();
    assert.ok(afterFirst > before, 'said again for the first send');
    await chat.send('hello again');
    assert.ok(statuses() > afterFirst, 'and again for the second');
    assert.deepEqual(chat.view.of('agent_status').at(-1)?.status.error, {
      kind: 'not_installed',
      message: 'no-such-acp-agent was not found on PATH.',
    });
    assert.deepEqual(chat.view.of('error'), []);
    assert.equal(chat.transcript(), '');
    // The banner's "Check agents" runs the agent doctor through the editor port.
    await chat.controller.handleMessage({ type: 'check_agents' });
    assert.equal(chat.checkAgentsRuns, 1);
  });

  it('sends a fresh snapshot with the transcript so far when a view reconnects', async () => {
    const chat = await readyChat({ agents: [testAgent('a')] });
    await chat.send('stream 3');
    const second = new RecordingView();
    chat.controller.attachView(second);
    await chat.controller.handleMessage({ type: 'ready' });
    const snapshot = second.messages[0];
    assert.ok(snapshot?.type === 'snapshot');
    assert.deepEqual(
      snapshot.view.chat?.thread.entries.map((e) => ('text' in e ? e.text : '')),
      ['stream 3', 'chunk 1 chunk 2 chunk 3 '],
    );
  });

  it('gives the view the turn so far and the rest of the stream after it reconnects mid-stream', async () => {
    const chat = await readyChat({ agents: [testAgent('a', { TEST_AGENT_CHUNK_DELAY_MS: '20' })] });
    const sending = chat.send('stream 30');
    await until(() => chat.transcript().includes('chunk 3 '));
    const second = new RecordingView();
    chat.controller.attachView(second);
    await chat.controller.handleMessage({ type: 'ready' });
    await sending;
    const snapshot = second.of('snapshot')[0];
    assert.ok(snapshot);
    const agentEntry = snapshot.view.chat?.thread.entries[1];
    assert.ok(agentEntry && 'text' in agentEntry);
    const rest = second
      .events()
      .flatMap((e) => (e.type === 'text_appended' && e.entryId === agentEntry.id ? [e.text] : []))
      .join('');
    assert.equal(agentEntry.text + rest, Array.from({ length: 30 }, (_, i) => `chunk ${i + 1} `).join(''));
    assert.equal(snapshot.view.chat?.thread.turns[0]?.status, 'running');
  });
});
