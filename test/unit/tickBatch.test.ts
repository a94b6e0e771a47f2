import { strict as assert } from 'node:assert';
import { TickBatch } from '../../src/core/util/tickBatch';

describe('TickBatch: what is posted in one turn of the event loop goes as one batch', () => {
  const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

  it('sends the posts of one turn together, in order, once that turn is over', async () => {
    const sent: (readonly string[])[] = [];
    const batch = new TickBatch<string>((items) => sent.push(items));
    batch.post('chats');
    batch.post('chats again');
    await Promise.resolve(); // a promise settled on the way: still the same turn
    batch.post('turn started');
    assert.deepEqual(sent, [], 'nothing goes before the turn is over');
    await nextTurn();
    assert.deepEqual(sent, [['chats', 'chats again', 'turn started']]);
  });

  it('a post of a later turn goes in a batch of its own, not held back', async () => {
    const sent: (readonly string[])[] = [];
    const batch = new TickBatch<string>((items) => sent.push(items));
    batch.post('a');
    await nextTurn();
    batch.post('b');
    await nextTurn();
    assert.deepEqual(sent, [['a'], ['b']]);
  });

  it('a post made while a batch is being sent goes in the next batch', async () => {
    const sent: (readonly string[])[] = [];
    const batch: TickBatch<string> = new TickBatch<string>((items) => {
      sent.push(items);
      if (items.includes('a')) {
        batch.post('posted while sending');
      }
    });
    batch.post('a');
    await nextTurn();
    await nextTurn();
    assert.deepEqual(sent, [['a'], ['posted while sending']]);
  });

  it('disposed, it drops what is pending and sends nothing more', async () => {
    const sent: (readonly string[])[] = [];
    const batch = new TickBatch<string>((items) => sent.push(items));
    batch.post('to a view that closed');
    batch.dispose();
    batch.post('after');
    await nextTurn();
    assert.deepEqual(sent, []);
  });
});
