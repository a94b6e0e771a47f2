import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { abortable, isTimeout } from '../../src/core/util/abortable';
import { deadlineSignal } from '../../src/core/util/clock';
import { collectGarbage } from '../support/collectGarbage';
import { ManualClock } from '../support/manualClock';

const never = (): Promise<never> => new Promise<never>(() => undefined);

describe('deadlineSignal: a deadline, or another signal, whichever comes first', () => {
  it('still times out after a garbage collection while it waits, with another signal beside it', async () => {
    // AbortSignal.any([AbortSignal.timeout(ms), other]) never fires once collected (nodejs/node#57736).
    const stop = new AbortController();
    const deadline = deadlineSignal(30, stop.signal);
    const waiting = abortable(never(), deadline.signal).catch((error: unknown) => error);
    collectGarbage();
    assert.equal(isTimeout(await waiting), true);
    deadline.dispose();
  });

  it('aborts with the other signal’s reason when it comes first, and its timer is stopped on dispose', async () => {
    const clock = new ManualClock();
    const stop = new AbortController();
    const deadline = deadlineSignal(1000, stop.signal, clock);
    const waiting = abortable(never(), deadline.signal).catch((error: unknown) => error);
    stop.abort(new Error('stopped'));
    assert.match(String(await waiting), /stopped/);
    assert.equal(clock.pending, 1);
    deadline.dispose();
    assert.equal(clock.pending, 0);
  });

  it('alone, times out on its clock', async () => {
    const clock = new ManualClock();
    const deadline = deadlineSignal(1000, undefined, clock);
    const waiting = abortable(never(), deadline.signal).catch((error: unknown) => error);
    clock.advance(999);
    assert.equal(deadline.signal.aborted, false);
    clock.advance(1);
    assert.equal(isTimeout(await waiting), true);
  });

  it('is the one way a timeout is combined with another signal (a static look at every source file)', () => {
    const root = path.resolve(__dirname, '../../src');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.ts'),
    );
    const both = files.filter((file) => {
      // Code only: comments may name the pattern to warn against it.
      const code = readFileSync(path.join(root, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      return code.includes('AbortSignal.any(') && code.includes('AbortSignal.timeout(');
    });
    assert.deepEqual(both, [], 'AbortSignal.timeout beside AbortSignal.any: use deadlineSignal');
    assert.ok(files.length > 100 && files.includes(path.join('core', 'util', 'clock.ts')));
  });
});
