import { strict as assert } from 'node:assert';
import { recorded, agent, user, toolCall } from '../../support/threadUpdates';

describe('Thread: turns', () => {
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
