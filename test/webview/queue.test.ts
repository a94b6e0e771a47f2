import assert from 'node:assert/strict';
import { added, ended, events, message, snapshot, started, turn } from './support/builders';
import { useChatPages } from './support/suite';
import { countStateWrites, stateWrites } from './support/stateWrites';

describe('webview: queued messages', () => {
  const chat = useChatPages();

  async function runningChat() {
    const page = await chat.openShowing(snapshot({ turns: [turn('t1')] }));
    return page;
  }

  it('queues Enter while a turn runs and sends the queue in order as turns complete', async () => {
    const page = await runningChat();
    const input = page.page.locator('.composer-input');
    for (const text of ['first follow-up', 'second follow-up']) {
      await input.fill(text);
      await input.press('Enter');
    }
    assert.equal((await page.postedOf('send')).length, 0);
    const queued = page.page.locator('.queued-text');
    assert.equal(await queued.count(), 2);
    assert.deepEqual(await queued.evaluateAll((list) => list.map((t) => (t as HTMLTextAreaElement).value)), [
      'first follow-up',
      'second follow-up',
    ]);
    await page.host(events(ended(turn('t1', { status: 'completed', stopReason: 'end_turn' }))));
    assert.deepEqual(await page.postedOf('send'), [{ type: 'send', text: 'first follow-up' }]);
    assert.equal(await queued.count(), 1);
    await page.host(
      events(started(turn('t2')), added(message('user', 'u2', 'first follow-up', { turnId: 't2' }))),
    );
    assert.equal((await page.postedOf('send')).length, 1, 'one at a time');
    await page.host(events(ended(turn('t2', { status: 'completed', stopReason: 'end_turn' }))));
    assert.deepEqual((await page.postedOf('send')).at(-1), { type: 'send', text: 'second follow-up' });
    assert.equal(await page.page.locator('.message-queue').isVisible(), false);
  });

  it('holds the queue after a cancelled or failed turn until the user sends it', async () => {
    const page = await runningChat();
    await page.send('after this');
    await page.host(
      events(ended(turn('t1', { status: 'failed', error: { kind: 'internal', message: 'boom' } }))),
    );
    assert.equal((await page.postedOf('send')).length, 0, 'not sent after a failure');
    assert.match(await page.page.locator('.queue-note').innerText(), /did not complete/);
    await page.page.getByRole('button', { name: 'Send now' }).click();
    assert.deepEqual(await page.postedOf('send'), [{ type: 'send', text: 'after this' }]);
    assert.equal(await page.page.locator('.queued-message').count(), 0);
  });

  it('"Send now" cancels the running turn and sends once it has ended', async () => {
    const page = await runningChat();
    await page.send('stop and do this instead');
    await page.page.getByRole('button', { name: 'Send now' }).click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'cancel' });
    assert.equal((await page.postedOf('send')).length, 0, 'waits for the cancel to land');
    await page.host(events(ended(turn('t1', { status: 'cancelled', stopReason: 'cancelled' }))));
    assert.deepEqual(await page.postedOf('send'), [{ type: 'send', text: 'stop and do this instead' }]);
  });

  it('lets queued messages be edited, reordered and removed', async () => {
    const page = await runningChat();
    const input = page.page.locator('.composer-input');
    for (const text of ['one', 'two', 'three']) {
      await input.fill(text);
      await input.press('Enter');
    }
    const queued = page.page.locator('.queued-text');
    await queued.nth(1).fill('two, edited');
    await page.page.locator('.queued-message').nth(2).getByRole('button', { name: 'Move up' }).click();
    await page.page
      .locator('.queued-message')
      .nth(0)
      .getByRole('button', { name: 'Remove from queue' })
      .click();
    assert.deepEqual(await queued.evaluateAll((list) => list.map((t) => (t as HTMLTextAreaElement).value)), [
      'three',
      'two, edited',
    ]);
    assert.equal(
      await page.page.locator('.queued-message').nth(0).getByRole('button', { name: 'Move up' }).isDisabled(),
      true,
    );
    await page.host(events(ended(turn('t1', { status: 'completed', stopReason: 'end_turn' }))));
    assert.deepEqual(await page.postedOf('send'), [{ type: 'send', text: 'three' }]);
  });

  it('keeps the queue across the view being hidden (reload), held until the user sends it', async () => {
    const page = await runningChat();
    await page.send('do not lose me');
    await page.page.locator('.queued-text').fill('do not lose me, edited');
    await page.page.reload();
    await page.waitForReady();
    await page.host(snapshot({ turns: [turn('t1', { status: 'completed', stopReason: 'end_turn' })] }));
    assert.equal(await page.page.locator('.queued-text').inputValue(), 'do not lose me, edited');
    assert.match(await page.page.locator('.queue-note').innerText(), /wait for you/);
    assert.equal((await page.postedOf('send')).length, 0, 'the turn ended unseen: not sent by itself');
    await page.page.getByRole('button', { name: 'Send now' }).click();
    assert.deepEqual(await page.postedOf('send'), [{ type: 'send', text: 'do not lose me, edited' }]);
    await page.page.reload();
    await page.waitForReady();
    await page.host(snapshot());
    assert.equal(
      await page.page.locator('.queued-message').count(),
      0,
      'a sent message is gone from the queue',
    );
  });

  it('keeps a queued message whose send failed while the user types something else', async () => {
    const page = await runningChat();
    const input = await page.send('queued one');
    await input.fill('a new draft');
    await page.host(events(ended(turn('t1', { status: 'completed', stopReason: 'end_turn' }))));
    assert.deepEqual(await page.postedOf('send'), [{ type: 'send', text: 'queued one' }]);
    await page.host({ type: 'error', message: 'The agent is not connected.' });
    assert.equal(await input.inputValue(), 'a new draft', 'the draft is untouched');
    assert.equal(await page.page.locator('.queued-text').inputValue(), 'queued one', 'back in the queue');
    assert.match(await page.page.locator('.queue-note').innerText(), /wait for you/);
  });

  it('a turn that ends with nothing queued leaves the view’s saved state alone (no write, no message to VS Code)', async () => {
    const page = await chat.openShowing(snapshot(), { beforeLoad: countStateWrites });
    const writes = async () => (await stateWrites(page.page)).writes;
    for (const n of [1, 2, 3]) {
      await page.send(`ping ${n}`);
      const sent = await writes();
      await page.host(
        events(started(turn(`t${n}`)), added(message('user', `u${n}`, `ping ${n}`, { turnId: `t${n}` }))),
      );
      await page.host(events(ended(turn(`t${n}`, { status: 'completed', stopReason: 'end_turn' }))));
      assert.equal(
        await writes(),
        sent,
        `turn ${n}: its end wrote the state ${(await writes()) - sent} times`,
      );
    }
    assert.equal((await page.postedOf('send')).length, 3);
  });
});
