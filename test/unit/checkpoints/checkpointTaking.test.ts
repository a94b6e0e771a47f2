import { strict as assert } from 'node:assert';
import { silentLogger } from '../../../src/core/ports';
import { CheckpointTaking } from '../../../src/features/checkpoints/chat/checkpointTaking';
import type { WorkspaceChangesPort } from '../../../src/features/checkpoints/chat/workspaceChanges';
import { WritesInFlight } from '../../../src/features/checkpoints/chat/writesInFlight';
import type { CheckpointStore } from '../../../src/features/checkpoints/core/types';
import { collectGarbage } from '../../support/collectGarbage';

/** Taking checkpoints of `store` (`timeoutMs` as given), with Undo's writes known to `writes`. */
function takingOf(store: CheckpointStore, writes = new WritesInFlight(), timeoutMs = 50): CheckpointTaking {
  return new CheckpointTaking({
    checkpointStore: () => Promise.resolve(store),
    workspace: { inform: () => undefined } as unknown as WorkspaceChangesPort,
    logger: silentLogger,
    writes,
    timeoutMs,
  });
}

describe('the checkpoint before a prompt: its time limit', () => {
  it('holds the prompt back no longer than the limit, also when Stop may end it and memory is collected meanwhile', async () => {
    let created = 0;
    // A store whose checkpoint is never done (a huge folder on a busy machine).
    const store = {
      coverage: 'full',
      create: () => {
        created++;
        setImmediate(collectGarbage); // once the wait for it has begun
        return new Promise<string>(() => undefined);
      },
    } as unknown as CheckpointStore;
    const taking = takingOf(store);
    const stop = new AbortController();
    const outcome = await taking.take(stop.signal);
    assert.equal(created, 1);
    assert.ok('problem' in outcome && outcome.late !== undefined, JSON.stringify(outcome));
    assert.match(outcome.problem, /still being taken after 0 s/);
  });

  it('is taken once an Undo still writing is done: a message sent at once gets the files as Undo left them', async () => {
    const order: string[] = [];
    const store = {
      coverage: 'full',
      create: () => {
        order.push('checkpoint');
        return Promise.resolve('after-undo');
      },
    } as unknown as CheckpointStore;
    const writes = new WritesInFlight();
    let finish: () => void = () => undefined;
    const undo = writes.run(
      () =>
        new Promise<void>((resolve) => {
          finish = () => {
            order.push('undo wrote');
            resolve();
          };
        }),
    );
    const taken = takingOf(store, writes, 60_000).take();
    // All the checkpoint could do without waiting for the Undo (its steps answer at once).
    await new Promise((resolve) => setImmediate(resolve));
    order.push('undo goes on');
    finish();
    assert.deepEqual(await taken, { id: 'after-undo' });
    await undo;
    assert.deepEqual(order, ['undo goes on', 'undo wrote', 'checkpoint']);
  });

  it('an Undo that never ends holds the prompt back no longer than the limit, and the turn says why', async () => {
    let created = 0;
    const store = { coverage: 'full', create: () => (created++, Promise.resolve('never')) };
    const writes = new WritesInFlight();
    void writes.run(() => new Promise<void>(() => undefined)); // a write on a hung mount
    const outcome = await takingOf(store as unknown as CheckpointStore, writes).take();
    assert.equal(created, 0);
    assert.ok('problem' in outcome && outcome.late === undefined, JSON.stringify(outcome));
    assert.match(outcome.problem, /No checkpoint for this turn: an Undo or Restore was still writing files/);
  });
});

describe('the checkpoints taken in the background: idle', () => {
  const turnOfEvents = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

  it('waits for the warm-up and the checkpoint ahead of Send while they are taken (the storage is removed after it)', async () => {
    const finish = new Map<string, () => void>();
    const held = <T>(name: string, value: T): Promise<T> =>
      new Promise((resolve) => finish.set(name, () => resolve(value)));
    const store = {
      coverage: 'full',
      create: () => held('warm-up', 'cp-1'),
      speculate: () => held('ahead', undefined),
    } as unknown as CheckpointStore;
    const taking = takingOf(store, new WritesInFlight(), 60_000);
    taking.warmUp();
    taking.speculate();
    while (finish.size < 2) {
      await turnOfEvents();
    }
    let idle = false;
    const waiting = taking.idle().then(() => (idle = true));
    await turnOfEvents();
    assert.equal(idle, false, 'idle before either is done');
    finish.get('warm-up')?.();
    await turnOfEvents();
    assert.equal(idle, false, 'idle before the checkpoint ahead is done');
    finish.get('ahead')?.();
    await waiting;
    assert.equal(idle, true);
  });
});
