import { strict as assert } from 'node:assert';
import type * as acp from '@agentclientprotocol/sdk';
import { replay } from '../../src/core/journal/journal';
import { Thread } from '../../src/core/thread/thread';
import type { ThreadEvent, ThreadSnapshot } from '../../src/core/thread/threadTypes';
import { ChatStore } from '../../webview/store';
import { recordEvents, text, useTestAgent, waitFor } from './support/testAgent';

/*
 * One thread model: the host's Thread, the journal's replay and the webview's store apply the
 * same events through the same function, so what each of them holds cannot differ.
 */

/** What the webview store holds after a snapshot and then `events`, as a snapshot. */
function storeAfter(start: ThreadSnapshot, events: readonly ThreadEvent[]): ThreadSnapshot {
  const store = new ChatStore();
  store.applySnapshot({ agents: [], status: { state: 'ready' }, chat: { chatId: 'c', thread: start } });
  assert.equal(store.applyEvents('c', events), true);
  return { entries: [...store.entries], turns: [...store.turns], state: store.state };
}

function assertAllAgree(start: ThreadSnapshot, events: readonly ThreadEvent[], thread: Thread): void {
  const replayed = replay(start, events);
  assert.deepEqual(replayed.snapshot, thread.snapshot());
  assert.equal(replayed.rebuilt, 0);
  assert.deepEqual(storeAfter(start, events), thread.snapshot());
}

const agentChunk = (text: string, messageId?: string): acp.SessionUpdate => ({
  sessionUpdate: 'agent_message_chunk',
  content: { type: 'text', text },
  ...(messageId ? { messageId } : {}),
});
const thoughtChunk = (text: string): acp.SessionUpdate => ({
  sessionUpdate: 'agent_thought_chunk',
  content: { type: 'text', text },
});

describe('one thread model: snapshot, journal replay and webview store agree', () => {
  describe('with the test agent over stdio', () => {
    const agent = useTestAgent();

    it('rebuilds the snapshot of a session of many kinds of turns from its events', async () => {
      const session = await agent.session();
      const start = session.thread.snapshot();
      const events = recordEvents(session);
      const prompts = [
        'stream 6 thoughts messages 2',
        'tool allow',
        'plan',
        'modes',
        'title',
        'quirks',
        'terminal echo replayed',
        'error 429 Rate limited',
        'stream 3',
      ];
      for (const prompt of prompts) {
        await session.prompt([text(prompt)]);
      }
      await session.prompt([text('late')]);
      await waitFor(session, () => session.thread.snapshot().state.usage?.used === 10);
      await session.setMode('ask');

      const snapshot = session.thread.snapshot();
      // The session is as rich as promised: every kind of entry, a permission, a failed turn, state.
      assert.deepEqual([...new Set(snapshot.entries.map((entry) => entry.kind))].sort(), [
        'agent',
        'thought',
        'tool_call',
        'user',
      ]);
      assert.ok(
        snapshot.entries.some(
          (entry) => entry.kind === 'tool_call' && entry.permission?.status === 'selected',
        ),
      );
      assert.deepEqual(
        snapshot.turns.map((turn) => turn.status),
        [...prompts.map((prompt) => (prompt.startsWith('error') ? 'failed' : 'completed')), 'completed'],
      );
      assert.equal(snapshot.state.plan.length, 3);
      assert.equal(snapshot.state.title, 'Test session title');
      assert.equal(snapshot.state.modes?.currentModeId, 'ask');
      assert.ok(events.some((event) => event.type === 'text_appended'));

      assertAllAgree(start, events, session.thread);
    });
  });

  describe('with a scripted thread', () => {
    it('rebuilds messages split by ids and steps, attachments, tool calls, permissions, replayed history and turn updates', () => {
      const thread = new Thread({ maxMessageChars: 40, maxToolOutputChars: 8 });
      const events: ThreadEvent[] = [];
      thread.onEvent((event) => events.push(event));
      const start = thread.snapshot();

      // History replayed by session/load: no turn.
      thread.setReplaying(true);
      thread.applyUpdate({
        sessionUpdate: 'user_message_chunk',
        content: { type: 'text', text: 'old question' },
      });
      thread.applyUpdate(agentChunk('old answer'));
      thread.setReplaying(false);

      const first = thread.startTurn(
        'look at this',
        [{ type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' }],
        {
          checkpointId: 'cp-1',
        },
      );
      thread.applyUpdate(thoughtChunk('thinking '));
      thread.applyUpdate(thoughtChunk('hard'));
      thread.applyUpdate(agentChunk('Let me '));
      thread.applyUpdate(agentChunk('check.'));
      thread.applyUpdate({
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'image', mimeType: 'image/png', data: 'AAAA' },
      });
      thread.applyUpdate({
        sessionUpdate: 'tool_call',
        toolCallId: 'call-1',
        title: 'Run tests',
        kind: 'execute',
        status: 'pending',
        content: [{ type: 'content', content: { type: 'text', text: 'output that is too long' } }],
      });
      thread.setPermission('call-1', {
        key: 'perm-1',
        options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }],
        status: 'pending',
      });
      thread.setPermission('call-1', {
        key: 'perm-1',
        options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }],
        status: 'selected',
        selectedOptionId: 'allow',
      });
      thread.applyUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'call-1', status: 'completed' });
      thread.applyUpdate(agentChunk('After the step'));
      // The message id becomes known mid-message: the whole entry travels.
      thread.applyUpdate(agentChunk(', with an id', 'msg-9'));
      thread.applyUpdate(agentChunk(' and more', 'msg-9'));
      thread.applyUpdate(agentChunk('A new message', 'msg-10'));
      // Crossing the limit: the whole entry travels with its marker.
      thread.applyUpdate(agentChunk(' that runs well past the limit of forty', 'msg-10'));
      thread.applyUpdate({
        sessionUpdate: 'plan',
        entries: [{ content: 'Fix it', priority: 'high', status: 'in_progress' }],
      });
      thread.applyUpdate({ sessionUpdate: 'session_info_update', title: 'Scripted' });
      thread.applyUpdate({ sessionUpdate: 'current_mode_update', currentModeId: 'code' });
      thread.applyUpdate({ sessionUpdate: 'usage_update', used: 5, size: 50 });
      thread.applyUpdate({ sessionUpdate: 'notice', severity: 'info', title: 'FYI' } as acp.SessionUpdate);
      thread.updateTurn(first.id, { changes: { files: [], live: true, coverage: 'full' } });
      thread.endTurn(first.id, { status: 'completed', stopReason: 'end_turn' });
      thread.updateTurn(first.id, { restoredAt: 42 });

      const second = thread.startTurn('again', []);
      // A restarted agent numbers its tool calls afresh: a new card in this turn.
      thread.applyUpdate({
        sessionUpdate: 'tool_call_update',
        toolCallId: 'call-1',
        title: 'Read',
        kind: 'read',
      });
      thread.applyUpdate(agentChunk('done'));
      thread.endTurn(second.id, {
        status: 'failed',
        error: { kind: 'rate_limited', message: 'Slow down', code: 429 },
      });

      const snapshot = thread.snapshot();
      assert.deepEqual(
        snapshot.entries.map((entry) => [entry.kind, entry.turnId]),
        [
          ['user', undefined],
          ['agent', undefined],
          ['user', 't1'],
          ['thought', 't1'],
          ['agent', 't1'],
          ['tool_call', 't1'],
          ['agent', 't1'],
          ['agent', 't1'],
          ['user', 't2'],
          ['tool_call', 't2'],
          ['agent', 't2'],
        ],
      );
      assert.ok(snapshot.entries.some((entry) => entry.kind === 'agent' && entry.truncated !== undefined));
      assert.ok(snapshot.entries.some((entry) => entry.kind === 'agent' && entry.attachments.length === 1));
      assertAllAgree(start, events, thread);
    });

    it('rebuilds a thread restored from the journal and continued', () => {
      const original = new Thread();
      const turn = original.startTurn('cut off', []);
      original.applyUpdate(agentChunk('half an answ'));
      const restored = Thread.restore(original.snapshot());
      const start = restored.snapshot();
      const events: ThreadEvent[] = [];
      restored.onEvent((event) => events.push(event));
      restored.updateTurn(turn.id, { checkpointId: 'cp-after' });
      const next = restored.startTurn('go on', []);
      restored.applyUpdate(agentChunk('the rest'));
      restored.endTurn(next.id, { status: 'completed', stopReason: 'end_turn' });

      assert.deepEqual(
        restored.snapshot().turns.map((t) => t.status),
        ['interrupted', 'completed'],
      );
      assertAllAgree(start, events, restored);
    });

    it('differs only in the count of text dropped past the limit, which is not announced chunk by chunk', () => {
      const thread = new Thread({ maxMessageChars: 10 });
      const events: ThreadEvent[] = [];
      thread.onEvent((event) => events.push(event));
      thread.applyUpdate(agentChunk('0123456789ab'));
      thread.applyUpdate(agentChunk('cdef'));

      const [live] = thread.snapshot().entries;
      const [replayed] = replay(undefined, events).snapshot.entries;
      assert.deepEqual(live?.kind === 'agent' ? live.truncated : undefined, { limit: 10, omittedChars: 6 });
      assert.deepEqual(replayed?.kind === 'agent' ? replayed.truncated : undefined, {
        limit: 10,
        omittedChars: 2,
      });
      assert.deepEqual({ ...replayed, truncated: undefined }, { ...live, truncated: undefined });
    });
  });
});
