import { strict as assert } from 'node:assert';
import { LiveRefresh } from '../../../src/features/checkpoints/chat/liveRefresh';

/** A promise and its resolver. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('checkpoints: the live change list runs one snapshot at a time', () => {
  it('gathers requests while a snapshot runs into exactly one more after it', async () => {
    let running = 0;
    let most = 0;
    const started: (() => void)[] = [];
    const finishes: (() => void)[] = [];
    let nextStart = deferred();
    const live = new LiveRefresh(0, async () => {
      running++;
      most = Math.max(most, running);
      const done = deferred();
      finishes.push(done.resolve);
      started.push(() => undefined);
      nextStart.resolve();
      await done.promise;
      running--;
    });
    try {
      live.request();
      await nextStart.promise;
      nextStart = deferred();
      for (let i = 0; i < 10; i++) {
        live.request(); // file events while the first snapshot runs
      }
      assert.equal(started.length, 1, 'no second snapshot while the first runs');
      finishes[0]?.();
      await nextStart.promise;
      assert.equal(started.length, 2, 'one more snapshot for everything that happened meanwhile');
      finishes[1]?.();
      assert.equal(most, 1);
    } finally {
      live.dispose();
    }
  });
});
