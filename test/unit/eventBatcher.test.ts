import { strict as assert } from 'node:assert';
import FakeTimers from '@sinonjs/fake-timers';

type InstalledClock = ReturnType<typeof FakeTimers.install>;
import type { ThreadEvent } from '../../src/core/thread/threadTypes';
import { EventBatcher } from '../../src/chat/eventBatcher';
import { until } from './support/chatHarness';

describe('event batcher', () => {
  // The batcher's interval is time: a fake clock (setTimeout and performance.now) steps it exactly.
  let clock: InstalledClock | undefined;
  const fakeClock = (): InstalledClock => {
    clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
    return clock;
  };

  afterEach(() => {
    clock?.uninstall();
    clock = undefined;
  });

  it('joins consecutive deltas to one entry and flushes once per interval', async () => {
    const flushed: ThreadEvent[][] = [];
    const batcher = new EventBatcher((events) => flushed.push(events), 5);
    for (let i = 0; i < 1000; i++) {
      batcher.push({ type: 'text_appended', entryId: 'e1', text: 'x' });
    }
    batcher.push({ type: 'text_appended', entryId: 'e2', text: 'y' });
    batcher.push({ type: 'text_appended', entryId: 'e1', text: 'z' });
    assert.equal(flushed.length, 0);
    // The interval's flush is the event: wait for it, then check it carried everything, in one batch.
    await until(() => flushed.length > 0, 'the first flush');
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

  it('keeps other events in order between deltas', () => {
    const flushed: ThreadEvent[][] = [];
    const batcher = new EventBatcher((events) => flushed.push(events));
    const notice: ThreadEvent = { type: 'notice', notice: { severity: 'info', title: 'between' } };
    batcher.push({ type: 'text_appended', entryId: 'e1', text: 'a' });
    batcher.push(notice);
    batcher.push({ type: 'text_appended', entryId: 'e1', text: 'b' });
    batcher.push({ type: 'text_appended', entryId: 'e1', text: 'c' });
    batcher.flush();
    assert.deepEqual(flushed, [
      [
        { type: 'text_appended', entryId: 'e1', text: 'a' },
        notice,
        { type: 'text_appended', entryId: 'e1', text: 'bc' },
      ],
    ]);
    batcher.dispose();
  });

  it('streams to the view at most 60 messages a second, losing no chunk', async () => {
    const clock = fakeClock();
    const flushed: ThreadEvent[][] = [];
    const batcher = new EventBatcher((events) => flushed.push(events));
    // A chunk every millisecond for half a second.
    let pushed = 0;
    for (let ms = 0; ms < 500; ms++) {
      batcher.push({ type: 'text_appended', entryId: 'e1', text: 'x' });
      pushed++;
      await clock.tickAsync(1);
    }
    batcher.flush();
    assert.ok(flushed.length <= Math.ceil(0.5 * 60) + 1, `${flushed.length} flushes in 500 ms`);
    assert.ok(flushed.length >= 20, `${flushed.length} flushes in 500 ms: the stream was held back`);
    const received = flushed.flat().map((event) => (event.type === 'text_appended' ? event.text : ''));
    assert.equal(received.join(''), 'x'.repeat(pushed));
    batcher.dispose();
  });

  it('sends the first event after a quiet interval on the next tick, and the next ones when the interval is up', async () => {
    const flushed: ThreadEvent[][] = [];
    const clock = fakeClock();
    const batcher = new EventBatcher((events) => flushed.push(events), 1000);
    const sleep = (ms: number) => clock.tickAsync(ms);
    batcher.push({ type: 'text_appended', entryId: 'e1', text: 'a' });
    batcher.push({ type: 'text_appended', entryId: 'e1', text: 'b' });
    assert.equal(flushed.length, 0, 'never synchronously: what arrives in the same read goes together');
    await sleep(30);
    assert.deepEqual(flushed, [[{ type: 'text_appended', entryId: 'e1', text: 'ab' }]]);
    // Within the interval of that flush: held until it is up, joined with what follows.
    batcher.push({ type: 'text_appended', entryId: 'e1', text: 'c' });
    await sleep(30);
    batcher.push({ type: 'text_appended', entryId: 'e1', text: 'd' });
    assert.equal(flushed.length, 1);
    await sleep(1100);
    assert.deepEqual(flushed, [
      [{ type: 'text_appended', entryId: 'e1', text: 'ab' }],
      [{ type: 'text_appended', entryId: 'e1', text: 'cd' }],
    ]);
    batcher.dispose();
  });
});
