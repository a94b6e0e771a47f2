import { strict as assert } from 'node:assert';
import FakeTimers from '@sinonjs/fake-timers';

type InstalledClock = ReturnType<typeof FakeTimers.install>;
import type { ThreadEvent } from '../../src/core/thread/threadTypes';
import {
  EventBatcher,
  FLUSH_INTERVAL_MS,
  LONG_ANSWER_CHARS,
  LONG_ANSWER_FLUSH_INTERVAL_MS,
} from '../../src/chat/eventBatcher';
import { CoalescedEvents } from '../../src/chat/coalescedEvents';
import * as benchWorkload from '../../bench/workloads.mjs';
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
  /** Streams 100-character chunks, one a millisecond, for `ms` (flushes recorded in `flushedAt`); returns the text. */
  async function streamFor(
    clock: InstalledClock,
    batcher: EventBatcher,
    ms: number,
    flushedAt: number[],
  ): Promise<string> {
    let pushed = '';
    for (let at = 0; at < ms; at++) {
      const text = `${at % 10}`.repeat(100);
      batcher.push({ type: 'text_appended', entryId: 'e1', text });
      pushed += text;
      await clock.tickAsync(1);
    }
    assert.ok(flushedAt.length > 0);
    return pushed;
  }

  const gapsOf = (times: readonly number[]): number[] =>
    times.slice(1).map((time, i) => time - (times[i] ?? time));

  it('flushes a long answer at most 20 times a second, losing no chunk, and a new turn at 60 again', async () => {
    const clock = fakeClock();
    const flushed: ThreadEvent[][] = [];
    const flushedAt: number[] = [];
    const batcher = new EventBatcher((events) => {
      flushed.push(events);
      flushedAt.push(performance.now());
    });
    const turn = (id: string): ThreadEvent => ({
      type: 'turn_started',
      turn: { id, status: 'running', startedAt: 0 },
    });
    batcher.push(turn('t1'));
    // 100 characters a millisecond: the answer is long after LONG_ANSWER_CHARS / 100 ms.
    const longAfter = LONG_ANSWER_CHARS / 100;
    const pushed = await streamFor(clock, batcher, 2000, flushedAt);
    batcher.flush();
    const early = gapsOf(flushedAt.filter((time) => time < longAfter - 20));
    const late = gapsOf(flushedAt.filter((time) => time > longAfter + 100)).slice(0, -1); // the last: flush()
    assert.ok(
      early.length >= 10 && early.every((gap) => gap >= 16 && gap <= 18),
      `before: ${early.join(', ')}`,
    );
    assert.ok(late.length >= 25 && late.every((gap) => gap >= 50 && gap <= 51), `after: ${late.join(', ')}`);
    const text = (events: ThreadEvent[]) =>
      events.map((event) => (event.type === 'text_appended' ? event.text : ''));
    assert.equal(flushed.flatMap(text).join(''), pushed);
    // The next turn starts short again: its chunks go at the 60-a-second interval.
    flushedAt.length = 0;
    batcher.push(turn('t2'));
    await streamFor(clock, batcher, 200, flushedAt);
    const next = gapsOf(flushedAt.slice(1));
    assert.ok(
      next.length >= 8 && next.every((gap) => gap >= 16 && gap <= 18),
      `next turn: ${next.join(', ')}`,
    );
    batcher.dispose();
  });

  it("joins a message's chunks as `npm run bench` streams them to the page", () => {
    // The webview bench's messages stand for what this batcher posts: its chunks of CHUNK_CHARS, a message's
    // worth pushed one by one, come out as the message's events (one delta, not one a chunk).
    const text = Array.from({ length: 40_000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    const messages = benchWorkload.streamMessages(text);
    let at = 0;
    for (const message of messages) {
      const queue = new CoalescedEvents();
      const end = at + benchWorkload.messageChars(message);
      for (; at < end; at += benchWorkload.CHUNK_CHARS) {
        queue.push({
          type: 'text_appended',
          entryId: 'a1',
          text: text.slice(at, at + benchWorkload.CHUNK_CHARS),
        });
      }
      assert.deepEqual(message.events, queue.take());
    }
    assert.equal(at, text.length);
    assert.ok(messages.length > 1);
  });

  it('is the pacing `npm run bench` streams its answers with', () => {
    // The webview bench feeds the host's messages as this batcher would send them: if they part, its
    // streaming figures measure a cadence the extension no longer has.
    assert.equal(benchWorkload.LONG_ANSWER_CHARS, LONG_ANSWER_CHARS);
    const framesPerLongMessage = Math.round(LONG_ANSWER_FLUSH_INTERVAL_MS / FLUSH_INTERVAL_MS);
    assert.equal(
      benchWorkload.CHUNKS_PER_LONG_MESSAGE,
      benchWorkload.CHUNKS_PER_MESSAGE * framesPerLongMessage,
    );
  });
});
