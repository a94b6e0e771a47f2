import { strict as assert } from 'node:assert';
import { Thread } from '../../../src/core/thread/thread';
import type { PermissionState, ToolCallEntry } from '../../../src/core/thread/threadTypes';
import { recorded, toolCall, toolUpdate, textContent } from '../../support/threadUpdates';

describe('Thread: tool calls', () => {
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
