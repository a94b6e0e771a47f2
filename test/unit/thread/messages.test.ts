import { strict as assert } from 'node:assert';
import type * as acp from '@agentclientprotocol/sdk';
import type { Thread } from '../../../src/core/thread/thread';
import { recorded, agent, thought, user, toolCall, toolUpdate } from '../../support/threadUpdates';

/** Each entry as [kind, its text], a tool call's status standing for its text. */
function kindsAndTexts(thread: Thread): Array<[string, string]> {
  return thread
    .snapshot()
    .entries.map((entry) => [entry.kind, entry.kind === 'tool_call' ? entry.status : entry.text]);
}

/** Updates in order, and the entries [kind, text] they leave: where one message ends and the next begins. */
const MESSAGE_BOUNDARIES: ReadonlyArray<{
  name: string;
  updates: acp.SessionUpdate[];
  entries: Array<[string, string]>;
}> = [
  {
    name: 'starts a new message after an update of an earlier tool call, even though the message was last',
    updates: [
      toolCall('c1', { kind: 'edit', status: 'pending' }),
      agent('I will create hello.txt'),
      toolUpdate('c1', { status: 'completed' }),
      agent('Done.'),
    ],
    entries: [
      ['tool_call', 'completed'],
      ['agent', 'I will create hello.txt'],
      ['agent', 'Done.'],
    ],
  },
  {
    name: 'keeps one message across a tool update when both chunks carry the same messageId',
    updates: [
      toolCall('c1', { status: 'in_progress' }),
      agent('Working ', 'm1'),
      toolUpdate('c1', { status: 'completed' }),
      agent('on it', 'm1'),
    ],
    entries: [
      ['tool_call', 'completed'],
      ['agent', 'Working on it'],
    ],
  },
  {
    name: 'starts a new user entry when the messageId changes',
    updates: [user('First question', 'u1'), user('Second question', 'u2')],
    entries: [
      ['user', 'First question'],
      ['user', 'Second question'],
    ],
  },
];

describe('Thread: messages', () => {
  for (const { name, updates, entries } of MESSAGE_BOUNDARIES) {
    it(name, () => {
      const { thread } = recorded();
      for (const update of updates) {
        thread.applyUpdate(update);
      }
      assert.deepEqual(kindsAndTexts(thread), entries);
    });
  }

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
