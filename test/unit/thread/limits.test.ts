import { strict as assert } from 'node:assert';
import { middleMarker, truncationMarker } from '../../../src/core/thread/textBudget';
import { recorded, agent, thought, toolCall, textContent } from '../../support/threadUpdates';

describe('Thread: limits', () => {
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
