import { strict as assert } from 'node:assert';
import type * as acp from '@agentclientprotocol/sdk';
import { middleMarker, truncationMarker } from '../../src/core/textBudget';
import { Thread, type ThreadLimits } from '../../src/core/thread';
import type { PermissionState, ThreadEvent, ToolCallEntry } from '../../src/core/threadTypes';

/** A thread and every event it emitted. */
function recorded(limits: Partial<ThreadLimits> = {}): { thread: Thread; events: ThreadEvent[] } {
  const thread = new Thread(limits);
  const events: ThreadEvent[] = [];
  thread.onEvent((event) => events.push(event));
  return { thread, events };
}

function agent(text: string, messageId?: string): acp.SessionUpdate {
  return {
    sessionUpdate: 'agent_message_chunk',
    content: { type: 'text', text },
    ...(messageId ? { messageId } : {}),
  };
}

function thought(text: string, messageId?: string): acp.SessionUpdate {
  return {
    sessionUpdate: 'agent_thought_chunk',
    content: { type: 'text', text },
    ...(messageId ? { messageId } : {}),
  };
}

function user(text: string, messageId?: string): acp.SessionUpdate {
  return {
    sessionUpdate: 'user_message_chunk',
    content: { type: 'text', text },
    ...(messageId ? { messageId } : {}),
  };
}

function toolCall(toolCallId: string, fields: Partial<acp.ToolCall> = {}): acp.SessionUpdate {
  return { sessionUpdate: 'tool_call', toolCallId, title: 'Read file', ...fields };
}

function toolUpdate(toolCallId: string, fields: Partial<acp.ToolCallUpdate> = {}): acp.SessionUpdate {
  return { sessionUpdate: 'tool_call_update', toolCallId, ...fields };
}

function textContent(text: string): acp.ToolCallContent {
  return { type: 'content', content: { type: 'text', text } };
}

describe('Thread', () => {
  describe('messages', () => {
    it('joins agent chunks into one entry and announces each later chunk as a text delta', () => {
      const { thread, events } = recorded();

      thread.applyUpdate(agent('Hel'));
      thread.applyUpdate(agent('lo'));
      thread.applyUpdate(agent(' world'));

      assert.deepEqual(thread.snapshot().entries, [
        { kind: 'agent', id: 'e1', text: 'Hello world', attachments: [] },
      ]);
      assert.deepEqual(events, [
        { type: 'entry_added', entry: { kind: 'agent', id: 'e1', text: 'Hel', attachments: [] } },
        { type: 'text_appended', entryId: 'e1', text: 'lo' },
        { type: 'text_appended', entryId: 'e1', text: ' world' },
      ]);
    });

    it('starts a new agent entry when the messageId changes', () => {
      const { thread, events } = recorded();

      thread.applyUpdate(agent('A', 'm1'));
      thread.applyUpdate(agent('B', 'm1'));
      thread.applyUpdate(agent('C', 'm2'));

      assert.deepEqual(thread.snapshot().entries, [
        { kind: 'agent', id: 'e1', text: 'AB', attachments: [], messageId: 'm1' },
        { kind: 'agent', id: 'e2', text: 'C', attachments: [], messageId: 'm2' },
      ]);
      assert.deepEqual(events, [
        {
          type: 'entry_added',
          entry: { kind: 'agent', id: 'e1', text: 'A', attachments: [], messageId: 'm1' },
        },
        { type: 'text_appended', entryId: 'e1', text: 'B' },
        {
          type: 'entry_added',
          entry: { kind: 'agent', id: 'e2', text: 'C', attachments: [], messageId: 'm2' },
        },
      ]);
    });

    it('continues a message without an id and takes the id of the first chunk that has one', () => {
      const { thread } = recorded();

      thread.applyUpdate(agent('A'));
      thread.applyUpdate(agent('B', 'm1'));
      thread.applyUpdate(agent('C'));

      assert.deepEqual(thread.snapshot().entries, [
        { kind: 'agent', id: 'e1', text: 'ABC', attachments: [], messageId: 'm1' },
      ]);
    });

    it('starts a new message after a tool call', () => {
      const { thread } = recorded();

      thread.applyUpdate(agent('Before'));
      thread.applyUpdate(toolCall('c1', { kind: 'read', status: 'pending' }));
      thread.applyUpdate(agent('After'));

      assert.deepEqual(thread.snapshot().entries, [
        { kind: 'agent', id: 'e1', text: 'Before', attachments: [] },
        {
          kind: 'tool_call',
          id: 'e2',
          toolCallId: 'c1',
          title: 'Read file',
          toolKind: 'read',
          status: 'pending',
          content: [],
          locations: [],
        },
        { kind: 'agent', id: 'e3', text: 'After', attachments: [] },
      ]);
    });

    it('starts a new message after an update of an earlier tool call, even though the message was last', () => {
      const { thread } = recorded();

      thread.applyUpdate(toolCall('c1', { kind: 'edit', status: 'pending' }));
      thread.applyUpdate(agent('I will create hello.txt'));
      thread.applyUpdate(toolUpdate('c1', { status: 'completed' }));
      thread.applyUpdate(agent('Done.'));

      assert.deepEqual(
        thread
          .snapshot()
          .entries.map((entry) => [entry.kind, entry.kind === 'tool_call' ? entry.status : entry.text]),
        [
          ['tool_call', 'completed'],
          ['agent', 'I will create hello.txt'],
          ['agent', 'Done.'],
        ],
      );
    });

    it('starts a new message after a plan update (the agent moved on to its next step)', () => {
      const { thread } = recorded();

      thread.applyUpdate(agent('I found no issues.'));
      thread.applyUpdate({
        sessionUpdate: 'plan',
        entries: [{ content: 'Create the file', priority: 'medium', status: 'in_progress' }],
      });
      thread.applyUpdate(agent("I'll create the file."));

      assert.deepEqual(
        thread.snapshot().entries.map((entry) => (entry.kind === 'tool_call' ? entry.title : entry.text)),
        ['I found no issues.', "I'll create the file."],
      );
    });

    it('keeps one message across a tool update when both chunks carry the same messageId', () => {
      const { thread } = recorded();

      thread.applyUpdate(toolCall('c1', { status: 'in_progress' }));
      thread.applyUpdate(agent('Working ', 'm1'));
      thread.applyUpdate(toolUpdate('c1', { status: 'completed' }));
      thread.applyUpdate(agent('on it', 'm1'));

      assert.deepEqual(
        thread
          .snapshot()
          .entries.map((entry) => [entry.kind, entry.kind === 'tool_call' ? entry.status : entry.text]),
        [
          ['tool_call', 'completed'],
          ['agent', 'Working on it'],
        ],
      );
    });

    it('keeps thoughts in their own entries apart from the answer', () => {
      const { thread, events } = recorded();

      thread.applyUpdate(thought('Let me'));
      thread.applyUpdate(thought(' think', 'th1'));
      thread.applyUpdate(agent('Answer'));

      assert.deepEqual(thread.snapshot().entries, [
        { kind: 'thought', id: 'e1', text: 'Let me think', attachments: [], messageId: 'th1' },
        { kind: 'agent', id: 'e2', text: 'Answer', attachments: [] },
      ]);
      assert.deepEqual(events, [
        { type: 'entry_added', entry: { kind: 'thought', id: 'e1', text: 'Let me', attachments: [] } },
        // The message id became known with this chunk: the whole entry travels, not a delta.
        {
          type: 'entry_updated',
          entry: { kind: 'thought', id: 'e1', text: 'Let me think', attachments: [], messageId: 'th1' },
        },
        { type: 'entry_added', entry: { kind: 'agent', id: 'e2', text: 'Answer', attachments: [] } },
      ]);
    });

    it('joins user chunks into one user entry', () => {
      const { thread, events } = recorded();

      thread.applyUpdate(user('Fix ', 'u1'));
      thread.applyUpdate(user('the bug', 'u1'));
      thread.applyUpdate(agent('Done'));

      assert.deepEqual(thread.snapshot().entries, [
        { kind: 'user', id: 'e1', text: 'Fix the bug', attachments: [], messageId: 'u1' },
        { kind: 'agent', id: 'e2', text: 'Done', attachments: [] },
      ]);
      assert.deepEqual(events[1], { type: 'text_appended', entryId: 'e1', text: 'the bug' });
    });

    it('starts a new user entry when the messageId changes', () => {
      const { thread } = recorded();

      thread.applyUpdate(user('First question', 'u1'));
      thread.applyUpdate(user('Second question', 'u2'));

      assert.deepEqual(
        thread
          .snapshot()
          .entries.map((entry) => [entry.kind, entry.kind === 'tool_call' ? entry.title : entry.text]),
        [
          ['user', 'First question'],
          ['user', 'Second question'],
        ],
      );
    });

    it('adds a non-text chunk to the message as an attachment', () => {
      const { thread, events } = recorded();

      thread.applyUpdate(agent('See '));
      thread.applyUpdate({
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' },
      });

      const expected = {
        kind: 'agent',
        id: 'e1',
        text: 'See ',
        attachments: [{ type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' }],
      };
      assert.deepEqual(thread.snapshot().entries, [expected]);
      assert.deepEqual(events.at(-1), { type: 'entry_updated', entry: expected });
    });
  });

  describe('tool calls', () => {
    it('updates the one entry when tool_call is repeated with the same id', () => {
      const { thread, events } = recorded();

      thread.applyUpdate(toolCall('c1', { title: 'Run', kind: 'execute', status: 'pending' }));
      thread.applyUpdate(toolCall('c1', { title: 'Run tests', kind: 'execute', status: 'in_progress' }));

      const first: ToolCallEntry = {
        kind: 'tool_call',
        id: 'e1',
        toolCallId: 'c1',
        title: 'Run',
        toolKind: 'execute',
        status: 'pending',
        content: [],
        locations: [],
      };
      const second: ToolCallEntry = { ...first, title: 'Run tests', status: 'in_progress' };
      assert.deepEqual(thread.snapshot().entries, [second]);
      assert.deepEqual(events, [
        { type: 'entry_added', entry: first },
        { type: 'entry_updated', entry: second },
      ]);
    });

    it('creates the entry titled "Tool call" when a tool_call_update arrives for an unseen id', () => {
      const { thread, events } = recorded();

      thread.applyUpdate(toolUpdate('c9', { status: 'in_progress' }));

      const entry: ToolCallEntry = {
        kind: 'tool_call',
        id: 'e1',
        toolCallId: 'c9',
        title: 'Tool call',
        toolKind: 'other',
        status: 'in_progress',
        content: [],
        locations: [],
      };
      assert.deepEqual(thread.snapshot().entries, [entry]);
      assert.deepEqual(events, [{ type: 'entry_added', entry }]);
    });

    it('keeps the title, kind and content an update leaves out', () => {
      const { thread } = recorded();

      thread.applyUpdate(
        toolCall('c1', { title: 'Edit a.ts', kind: 'edit', content: [textContent('planned')] }),
      );
      thread.applyUpdate(toolUpdate('c1', { status: 'completed', title: null, kind: null, content: null }));

      assert.deepEqual(thread.toolCall('c1'), {
        kind: 'tool_call',
        id: 'e1',
        toolCallId: 'c1',
        title: 'Edit a.ts',
        toolKind: 'edit',
        status: 'completed',
        content: [{ type: 'text', text: 'planned' }],
        locations: [],
      });
    });

    it('replaces the content on an update that carries content', () => {
      const { thread } = recorded();

      thread.applyUpdate(toolCall('c1', { content: [textContent('first'), textContent('second')] }));
      thread.applyUpdate(toolUpdate('c1', { content: [textContent('third')] }));

      assert.deepEqual(thread.toolCall('c1')?.content, [{ type: 'text', text: 'third' }]);
    });

    it('normalizes text, diff, terminal and image tool content', () => {
      const { thread } = recorded();

      thread.applyUpdate(
        toolCall('c1', {
          content: [
            textContent('output'),
            { type: 'diff', path: '/w/a.ts', oldText: 'old', newText: 'new' },
            { type: 'diff', path: '/w/b.ts', newText: 'created' },
            { type: 'terminal', terminalId: 'term-1' },
            { type: 'content', content: { type: 'image', mimeType: 'image/png', data: 'AAAA' } },
          ],
        }),
      );

      assert.deepEqual(thread.toolCall('c1')?.content, [
        { type: 'text', text: 'output' },
        { type: 'diff', path: '/w/a.ts', oldText: 'old', newText: 'new' },
        { type: 'diff', path: '/w/b.ts', oldText: null, newText: 'created' },
        { type: 'terminal', terminalId: 'term-1' },
        { type: 'attachment', attachment: { type: 'image', mimeType: 'image/png', bytes: 3 } },
      ]);
    });

    it('keeps locations with a line and drops a null line', () => {
      const { thread } = recorded();

      thread.applyUpdate(toolCall('c1'));
      thread.applyUpdate(
        toolUpdate('c1', {
          locations: [{ path: '/w/a.ts', line: 12 }, { path: '/w/b.ts' }, { path: '/w/c.ts', line: null }],
        }),
      );

      assert.deepEqual(thread.toolCall('c1')?.locations, [
        { path: '/w/a.ts', line: 12 },
        { path: '/w/b.ts' },
        { path: '/w/c.ts' },
      ]);
    });

    it('attaches a permission to the tool call entry', () => {
      const { thread, events } = recorded();
      thread.applyUpdate(toolCall('c1', { kind: 'edit' }));
      const permission: PermissionState = {
        key: 'p1',
        options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }],
        status: 'pending',
      };

      thread.setPermission('c1', permission);

      const entry: ToolCallEntry = {
        kind: 'tool_call',
        id: 'e1',
        toolCallId: 'c1',
        title: 'Read file',
        toolKind: 'edit',
        status: 'pending',
        content: [],
        locations: [],
        permission,
      };
      assert.deepEqual(thread.snapshot().entries, [entry]);
      assert.deepEqual(events.at(-1), { type: 'entry_updated', entry });
    });

    it('ignores a permission for an unknown tool call', () => {
      const { thread, events } = recorded();

      thread.setPermission('nope', { key: 'p1', options: [], status: 'cancelled' });

      assert.deepEqual(thread.snapshot().entries, []);
      assert.deepEqual(events, []);
    });
  });

  describe('session state', () => {
    it('replaces the plan with each plan update', () => {
      const { thread, events } = recorded();

      thread.applyUpdate({
        sessionUpdate: 'plan',
        entries: [
          { content: 'Read', priority: 'high', status: 'completed' },
          { content: 'Edit', priority: 'medium', status: 'in_progress' },
        ],
      });
      thread.applyUpdate({
        sessionUpdate: 'plan',
        entries: [{ content: 'Test', priority: 'low', status: 'pending' }],
      });

      assert.deepEqual(thread.snapshot().state.plan, [
        { content: 'Test', priority: 'low', status: 'pending' },
      ]);
      assert.deepEqual(
        events.map((event) => (event.type === 'state_updated' ? event.changed : event.type)),
        ['plan', 'plan'],
      );
    });

    it('keeps available commands with their input hint', () => {
      const { thread, events } = recorded();

      thread.applyUpdate({
        sessionUpdate: 'available_commands_update',
        availableCommands: [
          { name: 'web', description: 'Search the web', input: { hint: 'query to search for' } },
          { name: 'clear', description: 'Clear the context', input: null },
        ],
      });

      const state = {
        configOptions: [],
        commands: [
          { name: 'web', description: 'Search the web', inputHint: 'query to search for' },
          { name: 'clear', description: 'Clear the context' },
        ],
        plan: [],
      };
      assert.deepEqual(thread.snapshot().state, state);
      assert.deepEqual(events, [
        { type: 'state_updated', changed: 'commands', state: { commands: state.commands } },
      ]);
    });

    it('switches the current mode and keeps the known modes', () => {
      const { thread } = recorded();
      const available = [
        { id: 'ask', name: 'Ask' },
        { id: 'code', name: 'Code', description: 'Edits files' },
      ];
      thread.setState('modes', { currentModeId: 'ask', available });

      thread.applyUpdate({ sessionUpdate: 'current_mode_update', currentModeId: 'code' });

      assert.deepEqual(thread.snapshot().state.modes, { currentModeId: 'code', available });
    });

    it('records the current mode with no known modes when none were announced', () => {
      const { thread, events } = recorded();

      thread.applyUpdate({ sessionUpdate: 'current_mode_update', currentModeId: 'plan' });

      const state = {
        configOptions: [],
        commands: [],
        plan: [],
        modes: { currentModeId: 'plan', available: [] },
      };
      assert.deepEqual(thread.snapshot().state, state);
      assert.deepEqual(events, [{ type: 'state_updated', changed: 'modes', state: { modes: state.modes } }]);
    });

    it('flattens grouped select options into choices named by group and keeps boolean options', () => {
      const { thread } = recorded();

      thread.applyUpdate({
        sessionUpdate: 'config_option_update',
        configOptions: [
          {
            id: 'model',
            name: 'Model',
            description: 'The model to use',
            category: 'model',
            type: 'select',
            currentValue: 'sonnet',
            options: [
              {
                group: 'anthropic',
                name: 'Anthropic',
                options: [
                  { value: 'sonnet', name: 'Sonnet', description: 'Fast' },
                  { value: 'opus', name: 'Opus' },
                ],
              },
              { group: 'openai', name: 'OpenAI', options: [{ value: 'gpt', name: 'GPT' }] },
            ],
          },
          {
            id: 'effort',
            name: 'Effort',
            type: 'select',
            currentValue: 'low',
            options: [
              { value: 'low', name: 'Low' },
              { value: 'high', name: 'High', description: null },
            ],
          },
          { id: 'web', name: 'Web search', type: 'boolean', currentValue: true },
        ],
      });

      assert.deepEqual(thread.snapshot().state.configOptions, [
        {
          id: 'model',
          name: 'Model',
          description: 'The model to use',
          category: 'model',
          type: 'select',
          currentValue: 'sonnet',
          choices: [
            { value: 'sonnet', name: 'Sonnet', description: 'Fast', group: 'Anthropic' },
            { value: 'opus', name: 'Opus', group: 'Anthropic' },
            { value: 'gpt', name: 'GPT', group: 'OpenAI' },
          ],
        },
        {
          id: 'effort',
          name: 'Effort',
          type: 'select',
          currentValue: 'low',
          choices: [
            { value: 'low', name: 'Low' },
            { value: 'high', name: 'High' },
          ],
        },
        { id: 'web', name: 'Web search', type: 'boolean', currentValue: true },
      ]);
    });

    it('sets the title from session info and ignores an update without a title', () => {
      const { thread, events } = recorded();

      thread.applyUpdate({ sessionUpdate: 'session_info_update', title: 'Fix the login bug' });
      thread.applyUpdate({ sessionUpdate: 'session_info_update', updatedAt: '2025-01-01T00:00:00Z' });

      assert.equal(thread.snapshot().state.title, 'Fix the login bug');
      assert.deepEqual(events, [
        {
          type: 'state_updated',
          changed: 'title',
          state: { title: 'Fix the login bug' },
        },
      ]);
    });

    it('clears the title on a null title', () => {
      const { thread, events } = recorded();

      thread.applyUpdate({ sessionUpdate: 'session_info_update', title: 'Old' });
      thread.applyUpdate({ sessionUpdate: 'session_info_update', title: null });

      assert.equal(thread.snapshot().state.title, undefined);
      assert.equal(events.length, 2);
    });

    it('records usage with its cost', () => {
      const { thread } = recorded();

      thread.applyUpdate({
        sessionUpdate: 'usage_update',
        used: 1200,
        size: 200000,
        cost: { amount: 0.42, currency: 'USD' },
      });

      assert.deepEqual(thread.snapshot().state.usage, {
        used: 1200,
        size: 200000,
        cost: { amount: 0.42, currency: 'USD' },
      });
    });

    it('records usage without a cost', () => {
      const { thread } = recorded();

      thread.applyUpdate({ sessionUpdate: 'usage_update', used: 5, size: 10, cost: null });

      assert.deepEqual(thread.snapshot().state.usage, { used: 5, size: 10 });
    });

    it('announces a notice without adding an entry', () => {
      const { thread, events } = recorded();

      thread.applyUpdate({
        sessionUpdate: 'notice',
        severity: 'warning',
        title: 'Slow down',
        description: 'Rate limited',
      });
      thread.applyUpdate({ sessionUpdate: 'notice', severity: 'critical', title: 'Unknown severity' });

      assert.deepEqual(events, [
        { type: 'notice', notice: { severity: 'warning', title: 'Slow down', description: 'Rate limited' } },
        { type: 'notice', notice: { severity: 'info', title: 'Unknown severity' } },
      ]);
      assert.deepEqual(thread.snapshot().entries, []);
    });
  });

  describe('turns', () => {
    it('announces a turn, adds the user entry and tags later entries with the turn id', () => {
      const { thread, events } = recorded();

      const started = thread.startTurn('Hello', [
        { type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' },
      ]);
      thread.applyUpdate(agent('Hi'));
      thread.applyUpdate(toolCall('c1'));
      const ended = thread.endTurn('t1', { status: 'completed', stopReason: 'end_turn' });

      assert.deepEqual(started, { id: 't1', status: 'running', startedAt: started.startedAt });
      assert.deepEqual(ended, {
        id: 't1',
        status: 'completed',
        stopReason: 'end_turn',
        startedAt: started.startedAt,
        endedAt: ended.endedAt,
      });
      assert.ok((ended.endedAt ?? -1) >= started.startedAt);
      const userEntry = {
        kind: 'user',
        id: 'e1',
        turnId: 't1',
        text: 'Hello',
        attachments: [{ type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' }],
      };
      const agentEntry = { kind: 'agent', id: 'e2', turnId: 't1', text: 'Hi', attachments: [] };
      const toolEntry = {
        kind: 'tool_call',
        id: 'e3',
        turnId: 't1',
        toolCallId: 'c1',
        title: 'Read file',
        toolKind: 'other',
        status: 'pending',
        content: [],
        locations: [],
      };
      assert.deepEqual(thread.snapshot(), {
        entries: [userEntry, agentEntry, toolEntry],
        turns: [ended],
        state: { configOptions: [], commands: [], plan: [] },
      });
      assert.deepEqual(events, [
        { type: 'turn_started', turn: started },
        { type: 'entry_added', entry: userEntry },
        { type: 'entry_added', entry: agentEntry },
        { type: 'entry_added', entry: toolEntry },
        { type: 'turn_ended', turn: ended },
      ]);
    });

    it('reports the running turn only until it ends', () => {
      const { thread } = recorded();

      const turn = thread.startTurn('Go', []);
      assert.equal(thread.runningTurn, turn);
      thread.endTurn(turn.id, { status: 'cancelled', stopReason: 'cancelled' });

      assert.equal(thread.runningTurn, undefined);
    });

    it('numbers turns and gives a late update the last turn', () => {
      const { thread } = recorded();

      thread.startTurn('One', []);
      thread.endTurn('t1', { status: 'completed', stopReason: 'end_turn' });
      thread.applyUpdate(agent('late'));
      const second = thread.startTurn('Two', []);
      thread.applyUpdate(agent('reply'));

      assert.equal(second.id, 't2');
      assert.deepEqual(
        thread.snapshot().entries.map((entry) => [entry.id, entry.kind, entry.turnId]),
        [
          ['e1', 'user', 't1'],
          ['e2', 'agent', 't1'],
          ['e3', 'user', 't2'],
          ['e4', 'agent', 't2'],
        ],
      );
    });

    it('rejects ending an unknown turn', () => {
      const { thread } = recorded();

      assert.throws(() => thread.endTurn('t7', { status: 'completed' }), { message: 'Unknown turn t7' });
    });

    it('gives replayed entries no turn id', () => {
      const { thread } = recorded();
      thread.startTurn('Live', []);
      thread.endTurn('t1', { status: 'completed', stopReason: 'end_turn' });

      thread.setReplaying(true);
      thread.applyUpdate(user('Old question'));
      thread.applyUpdate(agent('Old answer'));
      thread.applyUpdate(toolCall('old-call'));
      thread.setReplaying(false);
      thread.applyUpdate(agent('Live again'));

      assert.deepEqual(
        thread.snapshot().entries.map((entry) => [entry.id, entry.kind, entry.turnId]),
        [
          ['e1', 'user', 't1'],
          ['e2', 'user', undefined],
          ['e3', 'agent', undefined],
          ['e4', 'tool_call', undefined],
          ['e5', 'agent', 't1'],
        ],
      );
      assert.equal('turnId' in (thread.entry('e3') ?? {}), false);
    });
  });

  describe('limits', () => {
    it('truncates a long message with the marker and then only counts what follows', () => {
      const { thread, events } = recorded({ maxMessageChars: 10 });

      thread.applyUpdate(agent('Hello '));
      thread.applyUpdate(agent('world!!'));
      thread.applyUpdate(agent('more'));
      thread.applyUpdate(agent('and more'));

      assert.deepEqual(thread.snapshot().entries, [
        {
          kind: 'agent',
          id: 'e1',
          text: `Hello worl${truncationMarker(10)}`,
          attachments: [],
          truncated: { limit: 10, omittedChars: 15 },
        },
      ]);
      assert.deepEqual(events, [
        { type: 'entry_added', entry: { kind: 'agent', id: 'e1', text: 'Hello ', attachments: [] } },
        // Truncation changes more than the text: the whole entry travels.
        {
          type: 'entry_updated',
          entry: {
            kind: 'agent',
            id: 'e1',
            text: `Hello worl${truncationMarker(10)}`,
            attachments: [],
            truncated: { limit: 10, omittedChars: 3 },
          },
        },
      ]);
    });

    it('truncates a first chunk that is already over the limit', () => {
      const { thread, events } = recorded({ maxMessageChars: 4 });

      thread.applyUpdate(thought('abcdefg'));
      thread.applyUpdate(thought('h'));

      const added = {
        kind: 'thought',
        id: 'e1',
        text: `abcd${truncationMarker(4)}`,
        attachments: [],
        truncated: { limit: 4, omittedChars: 3 },
      };
      assert.deepEqual(events, [{ type: 'entry_added', entry: added }]);
      assert.deepEqual(thread.snapshot().entries, [{ ...added, truncated: { limit: 4, omittedChars: 4 } }]);
    });

    it('keeps the end of a message past its limit and shows it after the head once the message is finished', () => {
      const { thread, events } = recorded({ maxMessageChars: 8 });
      const turn = thread.startTurn('go', []);

      thread.applyUpdate(agent('Head1234'));
      thread.applyUpdate(agent('middle-middle-'));
      thread.applyUpdate(agent('THE END'));
      // While the message streams only its head and the marker show.
      assert.deepEqual(thread.entry('e2'), {
        kind: 'agent',
        id: 'e2',
        turnId: turn.id,
        text: `Head1234${truncationMarker(8)}`,
        attachments: [],
        truncated: { limit: 8, omittedChars: 21 },
      });

      thread.endTurn(turn.id, { status: 'completed' });

      // The last quarter of the limit (2 characters) is kept: 19 of the 21 characters past the head are not shown.
      const finished = {
        kind: 'agent',
        id: 'e2',
        turnId: turn.id,
        text: `Head1234${middleMarker(19, 8)}ND`,
        attachments: [],
        truncated: { limit: 8, omittedChars: 19 },
      };
      assert.deepEqual(thread.entry('e2'), finished);
      // The finished text travels once, as a whole entry, before the turn ends (the journal and the view see it).
      const last = events.slice(-2);
      assert.deepEqual(last[0], { type: 'entry_updated', entry: finished });
      assert.equal(last[1]?.type, 'turn_ended');
    });

    it('finishes the cut message when the next entry starts, and keeps a message whose end fits whole', () => {
      const { thread } = recorded({ maxMessageChars: 8 });

      thread.applyUpdate(thought('12345678ab'));
      thread.applyUpdate(agent('next'));

      // 2 characters past the limit fit in the kept end (a quarter of 8): nothing is cut after all.
      assert.deepEqual(thread.entry('e1'), { kind: 'thought', id: 'e1', text: '12345678ab', attachments: [] });
      assert.deepEqual(thread.entry('e2'), { kind: 'agent', id: 'e2', text: 'next', attachments: [] });
    });

    it('truncates tool text output and diff sides over the limit', () => {
      const { thread } = recorded({ maxToolOutputChars: 5 });

      thread.applyUpdate(
        toolCall('c1', {
          content: [
            textContent('abcdefgh'),
            textContent('short'),
            { type: 'diff', path: '/w/a.ts', oldText: 'old', newText: '0123456789' },
            { type: 'diff', path: '/w/b.ts', oldText: 'old text!', newText: 'new' },
          ],
        }),
      );

      assert.deepEqual(thread.toolCall('c1')?.content, [
        { type: 'text', text: `abcde${truncationMarker(5)}`, truncated: { limit: 5, omittedChars: 3 } },
        { type: 'text', text: 'short' },
        {
          type: 'diff',
          path: '/w/a.ts',
          oldText: 'old',
          newText: `01234${truncationMarker(5)}`,
          truncated: { limit: 5, omittedChars: 5 },
        },
        {
          type: 'diff',
          path: '/w/b.ts',
          oldText: `old t${truncationMarker(5)}`,
          newText: 'new',
          truncated: { limit: 5, omittedChars: 4 },
        },
      ]);
    });
  });
});

describe('Thread: tool call ids across turns', () => {
  it('treats an id from an earlier turn, seen again in a running turn, as a new tool call', () => {
    const thread = new Thread();
    const first = thread.startTurn('first', []);
    thread.applyUpdate({
      sessionUpdate: 'tool_call',
      toolCallId: 'call-1',
      title: 'Edit a',
      kind: 'edit',
      status: 'pending',
    });
    thread.applyUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'call-1', status: 'completed' });
    thread.endTurn(first.id, { status: 'completed', stopReason: 'end_turn' });
    // A late update for the finished turn still reaches its entry.
    thread.applyUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'call-1', title: 'Edit a (done)' });

    const second = thread.startTurn('second', []);
    thread.applyUpdate({
      sessionUpdate: 'tool_call',
      toolCallId: 'call-1',
      title: 'Edit b',
      kind: 'edit',
      status: 'pending',
    });
    thread.applyUpdate({
      sessionUpdate: 'tool_call',
      toolCallId: 'call-1',
      title: 'Edit b',
      kind: 'edit',
      status: 'in_progress',
    });

    const tools = thread
      .snapshot()
      .entries.filter((e) => e.kind === 'tool_call')
      .map((e) => (e.kind === 'tool_call' ? [e.turnId, e.title, e.status] : []));
    assert.deepEqual(tools, [
      [first.id, 'Edit a (done)', 'completed'],
      [second.id, 'Edit b', 'in_progress'],
    ]);
  });
});
