import { strict as assert } from 'node:assert';
import {
  applyThreadEvent,
  entryOf,
  snapshotOf,
  threadModelOf,
  turnOf,
  type ThreadEntry,
  type ThreadEvent,
  type ThreadModel,
  type ThreadSnapshot,
  type Turn,
} from '../../src/protocol';

const agent = (id: string, text: string): ThreadEntry => ({ kind: 'agent', id, text, attachments: [] });
const tool = (id: string, status: 'pending' | 'completed' = 'pending'): ThreadEntry => ({
  kind: 'tool_call',
  id,
  toolCallId: `call-${id}`,
  title: 'Run tests',
  toolKind: 'execute',
  status,
  content: [{ type: 'text', text: 'ok' }],
  locations: [],
});
const turn = (id: string, status: Turn['status'] = 'running'): Turn => ({ id, status, startedAt: 1 });

/** The model's indexes point at the entries and turns it holds, and at nothing else. */
function assertIndexed(model: ThreadModel): void {
  assert.deepEqual(
    [...model.entryIndex].sort(([a], [b]) => a.localeCompare(b)),
    model.entries.map((entry, i) => [entry.id, i] as const).sort(([a], [b]) => a.localeCompare(b)),
  );
  assert.deepEqual(
    [...model.turnIndex].sort(([a], [b]) => a.localeCompare(b)),
    model.turns.map((t, i) => [t.id, i] as const).sort(([a], [b]) => a.localeCompare(b)),
  );
}

describe('applyThreadEvent', () => {
  it('adds entries in order and replaces an entry added again under the same id', () => {
    const model = threadModelOf();
    assert.deepEqual(applyThreadEvent(model, { type: 'entry_added', entry: agent('e1', 'a') }), {
      type: 'added',
      entry: agent('e1', 'a'),
    });
    applyThreadEvent(model, { type: 'entry_added', entry: tool('e2') });
    assert.deepEqual(applyThreadEvent(model, { type: 'entry_added', entry: agent('e1', 'again') }), {
      type: 'replaced',
      entry: agent('e1', 'again'),
    });
    assert.deepEqual(model.entries, [agent('e1', 'again'), tool('e2')]);
    assertIndexed(model);
  });

  it('replaces an updated entry in place', () => {
    const model = threadModelOf({
      entries: [agent('e1', 'a'), tool('e2'), agent('e3', 'c')],
      turns: [],
      state: { configOptions: [], commands: [], plan: [] },
    });
    const change = applyThreadEvent(model, { type: 'entry_updated', entry: tool('e2', 'completed') });
    assert.deepEqual(change, { type: 'replaced', entry: tool('e2', 'completed') });
    assert.deepEqual(model.entries, [agent('e1', 'a'), tool('e2', 'completed'), agent('e3', 'c')]);
    assertIndexed(model);
  });

  it('rebuilds an entry from an update when it was never added, and then treats it as known', () => {
    const model = threadModelOf();
    applyThreadEvent(model, { type: 'entry_added', entry: agent('e1', 'a') });
    assert.deepEqual(applyThreadEvent(model, { type: 'entry_updated', entry: tool('e7') }), {
      type: 'rebuilt',
      entry: tool('e7'),
    });
    assert.deepEqual(applyThreadEvent(model, { type: 'entry_updated', entry: tool('e7', 'completed') }), {
      type: 'replaced',
      entry: tool('e7', 'completed'),
    });
    assert.deepEqual(model.entries, [agent('e1', 'a'), tool('e7', 'completed')]);
    assertIndexed(model);
  });

  it('appends streamed text to a message or thought and says what was appended', () => {
    const model = threadModelOf();
    applyThreadEvent(model, { type: 'entry_added', entry: agent('e1', 'Hel') });
    applyThreadEvent(model, {
      type: 'entry_added',
      entry: { kind: 'thought', id: 'e2', text: 'hm', attachments: [], messageId: 'm1' },
    });
    assert.deepEqual(applyThreadEvent(model, { type: 'text_appended', entryId: 'e1', text: 'lo' }), {
      type: 'appended',
      entry: agent('e1', 'Hello'),
      text: 'lo',
    });
    applyThreadEvent(model, { type: 'text_appended', entryId: 'e2', text: 'm…' });
    assert.deepEqual(model.entries, [
      agent('e1', 'Hello'),
      { kind: 'thought', id: 'e2', text: 'hmm…', attachments: [], messageId: 'm1' },
    ]);
  });

  it('rebuilds an agent message from text appended to an entry it never saw', () => {
    const model = threadModelOf();
    const change = applyThreadEvent(model, { type: 'text_appended', entryId: 'e4', text: 'lost start' });
    assert.deepEqual(change, { type: 'rebuilt', entry: agent('e4', 'lost start') });
    assert.deepEqual(applyThreadEvent(model, { type: 'text_appended', entryId: 'e4', text: ', kept end' }), {
      type: 'appended',
      entry: agent('e4', 'lost start, kept end'),
      text: ', kept end',
    });
    assert.deepEqual(model.entries, [agent('e4', 'lost start, kept end')]);
    assertIndexed(model);
  });

  it("carries each entry it adds, replaces or rebuilds as the model keeps it, not the event's copy", () => {
    const model = threadModelOf();
    const user: ThreadEntry = { kind: 'user', id: 'u1', turnId: 't1', text: 'hi', attachments: [] };
    const events: ThreadEvent[] = [
      { type: 'entry_added', entry: user },
      { type: 'entry_added', entry: { ...user, text: 'hi again' } },
      { type: 'entry_updated', entry: agent('a1', 'update first') },
      { type: 'entry_updated', entry: agent('a1', 'updated') },
      { type: 'text_appended', entryId: 'a2', text: 'lost start' },
      { type: 'entry_added', entry: tool('c1') },
    ];
    for (const event of events) {
      const change = applyThreadEvent(model, event);
      assert.ok('entry' in change, change.type);
      assert.equal(change.entry, entryOf(model, change.entry.id), `${event.type} ${change.type}`);
    }
    assert.deepEqual(
      model.entries.map((entry) => entry.kind === 'tool_call' || entry.text),
      ['hi again', 'updated', 'lost start', true],
    );
  });

  it('ignores text appended to a tool call, leaving the tool call as it was', () => {
    const model = threadModelOf();
    applyThreadEvent(model, { type: 'entry_added', entry: tool('e1') });
    const change = applyThreadEvent(model, { type: 'text_appended', entryId: 'e1', text: 'stray' });
    assert.equal(change.type, 'ignored');
    assert.match(change.type === 'ignored' ? change.reason : '', /tool_call entry e1, which has no text/);
    assert.deepEqual(model.entries, [tool('e1')]);
  });

  it('keeps turns by id: started, ended and updated replace the same turn', () => {
    const model = threadModelOf();
    applyThreadEvent(model, { type: 'turn_started', turn: turn('t1') });
    applyThreadEvent(model, { type: 'turn_started', turn: turn('t2') });
    applyThreadEvent(model, { type: 'turn_ended', turn: { ...turn('t1', 'completed'), endedAt: 2 } });
    const change = applyThreadEvent(model, {
      type: 'turn_updated',
      turn: { ...turn('t1', 'completed'), endedAt: 2, restoredAt: 3 },
    });
    assert.deepEqual(change, {
      type: 'turn',
      turn: { ...turn('t1', 'completed'), endedAt: 2, restoredAt: 3 },
    });
    // A repeated start (a journal line written twice) does not make a second turn.
    applyThreadEvent(model, { type: 'turn_started', turn: turn('t2') });
    assert.deepEqual(model.turns, [{ ...turn('t1', 'completed'), endedAt: 2, restoredAt: 3 }, turn('t2')]);
    assert.deepEqual(turnOf(model, 't1')?.restoredAt, 3);
    assertIndexed(model);
  });

  it('adds a turn that an ending or update names but that never started (its line was lost)', () => {
    const model = threadModelOf();
    applyThreadEvent(model, { type: 'turn_updated', turn: { ...turn('t5'), checkpointId: 'cp' } });
    applyThreadEvent(model, { type: 'turn_ended', turn: turn('t6', 'failed') });
    assert.deepEqual(model.turns, [{ ...turn('t5'), checkpointId: 'cp' }, turn('t6', 'failed')]);
    assertIndexed(model);
  });

  it('patches the part of the session state that changed and names it; a notice changes nothing', () => {
    const model = threadModelOf();
    const plan = [{ content: 'Step', priority: 'high', status: 'pending' }] as const;
    applyThreadEvent(model, { type: 'state_updated', changed: 'plan', state: { plan: [...plan] } });
    assert.deepEqual(
      applyThreadEvent(model, { type: 'state_updated', changed: 'title', state: { title: 'Plan' } }),
      {
        type: 'state',
        changed: 'title',
      },
    );
    assert.deepEqual(model.state, { title: 'Plan', configOptions: [], commands: [], plan });
    // Without the part named, it is cleared; a whole state (as older journals hold) applies as well.
    applyThreadEvent(model, { type: 'state_updated', changed: 'title', state: {} });
    applyThreadEvent(model, { type: 'state_updated', changed: 'plan', state: {} });
    assert.deepEqual(model.state, { configOptions: [], commands: [], plan: [] });
    const whole = { title: 'Old journal', configOptions: [], commands: [], plan: [] };
    applyThreadEvent(model, { type: 'state_updated', changed: 'title', state: whole });
    assert.deepEqual(model.state, whole);
    const before = snapshotOf(model);
    const notice = { severity: 'warning', title: 'Rate limited' } as const;
    assert.deepEqual(applyThreadEvent(model, { type: 'notice', notice }), { type: 'notice', notice });
    assert.deepEqual(snapshotOf(model), before);
  });

  it('starts from a snapshot without changing it, and snapshots that later events leave alone', () => {
    const start: ThreadSnapshot = {
      entries: [agent('e1', 'a')],
      turns: [turn('t1')],
      state: { configOptions: [], commands: [], plan: [] },
    };
    const frozen = structuredClone(start);
    const model = threadModelOf(start);
    const taken = snapshotOf(model);
    const events: ThreadEvent[] = [
      { type: 'text_appended', entryId: 'e1', text: 'b' },
      { type: 'entry_added', entry: tool('e2') },
      { type: 'turn_ended', turn: turn('t1', 'completed') },
    ];
    for (const event of events) {
      applyThreadEvent(model, event);
    }
    assert.deepEqual(start, frozen);
    assert.deepEqual(taken, frozen);
    assert.deepEqual(entryOf(model, 'e1'), agent('e1', 'ab'));
    assert.deepEqual(snapshotOf(model), {
      entries: [agent('e1', 'ab'), tool('e2')],
      turns: [turn('t1', 'completed')],
      state: start.state,
    });
  });
});
