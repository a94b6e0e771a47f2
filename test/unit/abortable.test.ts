import { strict as assert } from 'node:assert';
import { abortable, isTimeout } from '../../src/core/util/abortable';

describe('abortable: one way to bound a wait', () => {
  it('settles as the work does while the signal holds', async () => {
    const controller = new AbortController();
    assert.equal(await abortable(Promise.resolve(7), controller.signal), 7);
    await assert.rejects(abortable(Promise.reject(new Error('boom')), controller.signal), /boom/);
  });

  it("rejects with the signal's reason once it aborts, and at once when already aborted", async () => {
    const controller = new AbortController();
    const never = new Promise<number>(() => undefined);
    const waiting = abortable(never, controller.signal);
    controller.abort(new Error('stopped'));
    await assert.rejects(waiting, /stopped/);
    await assert.rejects(abortable(Promise.resolve(1), AbortSignal.abort(new Error('before'))), /before/);
  });

  it('tells a timeout from other failures', async () => {
    const error = await abortable(new Promise(() => undefined), AbortSignal.timeout(1)).catch(
      (e: unknown) => e,
    );
    assert.equal(isTimeout(error), true);
    assert.equal(isTimeout(new Error('other')), false);
  });
});
