import assert from 'node:assert/strict';
import { added, ended, events, message, snapshot, started, turn, turnUpdated } from '../support/builders';
import { finishedTurn, T0 } from '../support/changeCard';
import { useChatPages } from '../support/suite';

describe('webview: Restore checkpoint and the restored mark', () => {
  const chat = useChatPages();

  it('offers Restore checkpoint on finished turns with a checkpoint, made on hover or focus, disabled while a turn runs', async () => {
    const page = await chat.open();
    const first = finishedTurn({ id: 't1', checkpointId: 'cp-1' });
    const noCheckpoint = finishedTurn({ id: 't2', checkpointId: undefined, startedAt: T0 + 10_000 });
    const third = turn('t3', { checkpointId: 'cp-3', startedAt: T0 + 20_000 });
    await page.host(
      snapshot({
        entries: [
          message('user', 'u1', 'one'),
          message('agent', 'a1', 'done one'),
          message('user', 'u2', 'two', { turnId: 't2' }),
          message('user', 'u3', 'three', { turnId: 't3' }),
        ],
        turns: [first, noCheckpoint, third],
      }),
    );
    const restore = (turnId: string) =>
      page.page.locator(`section[data-turn-id="${turnId}"] .restore-checkpoint`);
    const hover = (entryId: string) => page.page.locator(`[data-entry-id="${entryId}"]`).hover();
    assert.equal(await page.page.locator('.message-actions').count(), 0, 'no turn has its actions up front');
    for (const entryId of ['u1', 'u2', 'u3']) {
      await hover(entryId);
    }
    assert.equal(await restore('t1').count(), 1);
    assert.equal(await restore('t2').count(), 0, 'no checkpoint: no restore');
    assert.equal(await restore('t3').count(), 0, 'the running turn has none');
    assert.equal(await restore('t1').isDisabled(), true, 'disabled while t3 runs');
    // Among the message's actions, before its text.
    assert.equal(
      await page.page
        .locator('[data-entry-id="u1"]')
        .evaluate((entry) => entry.firstElementChild?.matches('.message-actions:has(> .restore-checkpoint)')),
      true,
    );

    await page.host(events(ended({ ...third, status: 'completed', stopReason: 'end_turn' })));
    assert.equal(await restore('t1').isDisabled(), false);
    assert.equal(await restore('t3').count(), 1, 'the actions shown are kept up to date');
    assert.equal(await restore('t1').getAttribute('aria-label'), 'Restore checkpoint');
    assert.equal(
      await restore('t1').getAttribute('title'),
      'Restore checkpoint: put the workspace back to how it was before this message',
    );
    assert.equal(await restore('t1').locator('.codicon-discard').count(), 1);
    await page.clearPosted();
    await restore('t1').click();
    await restore('t3').click();
    assert.deepEqual(await page.posted(), [
      { type: 'restore_checkpoint', turnId: 't1' },
      { type: 'restore_checkpoint', turnId: 't3' },
    ]);

    await page.host(events(started(turn('t4', { startedAt: T0 + 30_000 }))));
    assert.equal(await restore('t1').isDisabled(), true, 'a new turn runs');
    assert.equal(await restore('t3').isDisabled(), true);
  });

  it('makes a message’s actions when the keyboard reaches it: Tab goes on to them', async () => {
    const page = await chat.openShowing(
      snapshot({
        entries: [message('user', 'u1', 'one'), message('agent', 'a1', 'done one')],
        turns: [finishedTurn({ id: 't1', checkpointId: 'cp-1' })],
      }),
    );
    await page.page.locator('.transcript').focus();
    await page.page.keyboard.press('Tab');
    assert.equal(await page.page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'You');
    await page.page.keyboard.press('Tab');
    assert.equal(
      await page.page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
      'Restore checkpoint',
    );
    await page.page.keyboard.press('Tab');
    assert.equal(
      await page.page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
      'Edit and resend',
    );
    assert.equal(
      await page.page
        .locator('[data-entry-id="u1"] .message-actions')
        .evaluate((bar) => getComputedStyle(bar).opacity),
      '1',
      'shown while the focus is in the message',
    );
  });

  it('marks the restored message with a divider and everything from there that the restore undid', async () => {
    const page = await chat.open();
    const restoredAt = T0 + 25_000;
    await page.host(
      snapshot({
        entries: [
          message('user', 'u1', 'one', { turnId: 't1' }),
          message('user', 'u2', 'two', { turnId: 't2' }),
          message('agent', 'a2', 'did two', { turnId: 't2' }),
          message('user', 'u3', 'three', { turnId: 't3' }),
          message('user', 'u4', 'after the restore', { turnId: 't4' }),
        ],
        turns: [
          finishedTurn({ id: 't1', startedAt: T0 }),
          finishedTurn({ id: 't2', startedAt: T0 + 10_000, checkpointId: 'cp-2' }),
          finishedTurn({ id: 't3', startedAt: T0 + 20_000, checkpointId: 'cp-3' }),
          finishedTurn({ id: 't4', startedAt: T0 + 30_000, checkpointId: 'cp-4' }),
        ],
      }),
    );
    assert.equal(await page.page.locator('.restored-mark').count(), 0);
    assert.equal(await page.page.locator('.turn.restored-away').count(), 0);

    await page.host(
      events(
        turnUpdated(finishedTurn({ id: 't2', startedAt: T0 + 10_000, checkpointId: 'cp-2', restoredAt })),
      ),
    );
    const marks = page.page.locator('.restored-mark');
    assert.equal(await marks.count(), 1);
    assert.match((await marks.textContent()) ?? '', /^Workspace restored to before this message · \S.*$/);
    assert.equal(await marks.locator('time').getAttribute('datetime'), new Date(restoredAt).toISOString());
    assert.equal(
      await marks.evaluate((mark) => (mark.nextElementSibling as HTMLElement | null)?.dataset.turnId),
      't2',
      'the divider sits right above the restored message',
    );
    const away = await page.page
      .locator('.turn.restored-away')
      .evaluateAll((turns) => turns.map((t) => (t as HTMLElement).dataset.turnId));
    assert.deepEqual(away, ['t2', 't3'], 't4 came after the restore; t1 before the restored message');
    // Marked, still readable and selectable.
    const style = await page.page.locator('[data-entry-id="a2"]').evaluate((entry) => ({
      select: getComputedStyle(entry).userSelect,
      visible: entry.checkVisibility(),
    }));
    assert.deepEqual(style, { select: 'auto', visible: true });
    assert.equal(
      await page.page
        .locator('section[data-turn-id="t2"]')
        .evaluate((section) => getComputedStyle(section).borderLeftStyle),
      'solid',
    );

    // Restoring further back moves the mark up and marks more.
    await page.host(events(turnUpdated(finishedTurn({ id: 't1', startedAt: T0, restoredAt: T0 + 40_000 }))));
    assert.equal(await marks.count(), 2);
    assert.deepEqual(
      await page.page
        .locator('.turn.restored-away')
        .evaluateAll((turns) => turns.map((t) => (t as HTMLElement).dataset.turnId)),
      ['t1', 't2', 't3', 't4'],
    );
    page.assertClean();
  });

  it('a turn’s start and end touch no other turn’s restored mark (a long chat walks every turn each time)', async () => {
    const page = await chat.open();
    const turns = Array.from({ length: 50 }, (_, i) =>
      finishedTurn({ id: `t${i + 1}`, startedAt: T0 + i * 10_000, checkpointId: `cp-${i + 1}` }),
    );
    await page.host(
      snapshot({
        entries: turns.map((t, i) => message('user', `u${i + 1}`, `message ${i + 1}`, { turnId: t.id })),
        turns,
      }),
    );
    await page.page.evaluate(() => {
      const counted = window as unknown as { __marks: number };
      counted.__marks = 0;
      const toggle = DOMTokenList.prototype.toggle;
      DOMTokenList.prototype.toggle = function (token: string, force?: boolean) {
        if (token === 'restored-away') {
          counted.__marks++;
        }
        return toggle.call(this, token, force);
      };
    });
    const next = turn('t51', { checkpointId: 'cp-51', startedAt: T0 + 600_000 });
    await page.host(events(started(next), added(message('user', 'u51', 'one more', { turnId: 't51' }))));
    await page.host(events(ended({ ...next, status: 'completed', stopReason: 'end_turn' })));
    assert.equal(await page.page.evaluate(() => (window as unknown as { __marks: number }).__marks), 0);
    assert.equal(await page.page.locator('.turn.restored-away').count(), 0);
    page.assertClean();
  });
});
