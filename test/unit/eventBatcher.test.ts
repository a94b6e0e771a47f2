import { strict as assert } from 'node:assert';
import type { ThreadEvent } from '../../src/core/threadTypes';
import { EventBatcher } from '../../src/chat/eventBatcher';

describe('event batcher', () => {
  it('joins consecutive deltas to one entry and flushes once per interval', async () => {
    const flushed: ThreadEvent[][] = [];
    const batcher = new EventBatcher((events) => flushed.push(events), 5);
    for (let i = 0; i < 1000; i++) {
      batcher.push({ type: 'text_appended', entryId: 'e1', text: 'x' });
    }
    batcher.push({ type: 'text_appended', entryId: 'e2', text: 'y' });
    batcher.push({ type: 'text_appended', entryId: 'e1', text: 'z' });
    assert.equal(flushed.length, 0);
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.deepEqual(flushed, [
      [
        { type: 'text_appended', entryId: 'e1', text: 'x'.repeat(1000) },
        { type: 'text_appended', entryId: 'e2', text: 'y' },
        { type: 'text_appended', entryId: 'e1', text: 'z' },
      ],
    ]);
  });

  it('flushes on demand and drops on clear', () => {
    const flushed: ThreadEvent[][] = [];
    const batcher = new EventBatcher((events) => flushed.push(events), 1000);
    batcher.push({ type: 'text_appended', entryId: 'e1', text: 'a' });
    batcher.flush();
    batcher.push({ type: 'text_appended', entryId: 'e1', text: 'b' });
    batcher.clear();
    batcher.flush();
    assert.deepEqual(flushed, [[{ type: 'text_appended', entryId: 'e1', text: 'a' }]]);
    batcher.dispose();
  });
});
