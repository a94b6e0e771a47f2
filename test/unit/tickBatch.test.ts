import { strict as assert } from 'node:assert';
import { TickBatch } from '../../src/core/util/tickBatch';
import { ManualClock } from '../support/manualClock';

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

  describe('hold: what is posted waits for a post that ends the wait, or for its time', () => {
    const held = (): { sent: (readonly string[])[]; batch: TickBatch<string>; clock: ManualClock } => {
      const sent: (readonly string[])[] = [];
      const clock = new ManualClock();
      const batch = new TickBatch<string>((items) => sent.push(items), undefined, clock);
      return { sent, batch, clock };
    };
    const isAnswer = (item: string): boolean => item.startsWith('answer');

    it('keeps the posts of later turns of the loop until the one that ends it, then sends them together', async () => {
      const { sent, batch, clock } = held();
      batch.post('pending before the hold');
      batch.hold(50, isAnswer);
      batch.post('chats');
      await nextTurn();
      batch.post('turn started');
      await nextTurn();
      assert.deepEqual(sent, [], 'held, even the post pending when the hold began');
      batch.post('answer');
      batch.post('turn ended');
      assert.deepEqual(sent, [], 'the wait ends at the end of the turn of the loop, not in it');
      await nextTurn();
      assert.deepEqual(sent, [['pending before the hold', 'chats', 'turn started', 'answer', 'turn ended']]);
      assert.equal(clock.pending, 0, 'the hold’s timer went with it');
      batch.post('next chunk');
      await nextTurn();
      assert.deepEqual(sent.at(-1), ['next chunk'], 'after the wait, each turn of the loop goes as before');
    });

    it('sends what it kept when its time is up, not a moment before', async () => {
      const { sent, batch, clock } = held();
      batch.hold(50, isAnswer);
      batch.post('turn started');
      clock.advance(49);
      await nextTurn();
      assert.deepEqual(sent, []);
      clock.advance(1);
      assert.deepEqual(sent, [], 'still at the end of a turn of the loop');
      await nextTurn();
      assert.deepEqual(sent, [['turn started']]);
    });

    it('a hold with nothing posted sends nothing when its time is up', async () => {
      const { sent, batch, clock } = held();
      batch.hold(50, isAnswer);
      clock.advance(50);
      await nextTurn();
      assert.deepEqual(sent, []);
    });

    it('a later hold replaces the earlier: its time counts from the later one', async () => {
      const { sent, batch, clock } = held();
      batch.hold(50, isAnswer);
      batch.post('first send’s turn');
      clock.advance(30);
      batch.hold(50, isAnswer);
      clock.advance(20);
      await nextTurn();
      assert.deepEqual(sent, [], 'the first hold’s timer no longer ends the wait');
      assert.equal(clock.pending, 1);
      clock.advance(30);
      await nextTurn();
      assert.deepEqual(sent, [['first send’s turn']]);
    });

    it('disposed while holding: its timer stops and nothing is sent', async () => {
      const { sent, batch, clock } = held();
      batch.hold(50, isAnswer);
      batch.post('turn started');
      batch.dispose();
      assert.equal(clock.pending, 0);
      batch.hold(50, isAnswer);
      assert.equal(clock.pending, 0, 'a disposed batch holds nothing');
      await nextTurn();
      assert.deepEqual(sent, []);
    });
  });
});
