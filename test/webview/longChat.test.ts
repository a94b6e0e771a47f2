import assert from 'node:assert/strict';
import type { ThreadEntryMessage, TurnMessage } from '../../src/protocol';
import {
  appended,
  events,
  fileChange,
  message,
  snapshot,
  toolCall,
  turn,
  turnChanges,
  turnUpdated,
  updated,
} from './support/builders';
import { useChatPages } from './support/suite';

const TURNS = 300;

/** A finished chat of TURNS turns: a question, an answer and a tool call each. */
function longChat(): { entries: ThreadEntryMessage[]; turns: TurnMessage[] } {
  const entries: ThreadEntryMessage[] = [];
  const turns: TurnMessage[] = [];
  for (let t = 1; t <= TURNS; t++) {
    const turnId = `t${t}`;
    turns.push(turn(turnId, { status: 'completed', stopReason: 'end_turn', endedAt: 1_700_000_000_001 }));
    entries.push(message('user', `u${t}`, `Question ${t}`, { turnId }));
    entries.push(message('agent', `a${t}`, `Answer **${t}**.`, { turnId }));
    entries.push(toolCall(`c${t}`, { turnId, title: `Read file ${t}`, status: 'completed' }));
  }
  return { entries, turns };
}

describe('webview: a long chat', () => {
  const chat = useChatPages();

  it('builds the latest turns at once and older turns as they scroll into view, with their latest content', async () => {
    const page = await chat.open();
    const { entries, turns } = longChat();
    await page.host(snapshot({ entries, turns }));
    const built = page.page.locator('[data-entry-id]');
    const first = await built.count();
    assert.ok(first > 0 && first < entries.length / 2, `${first} of ${entries.length} entries built at once`);
    assert.match(await page.page.locator('[data-entry-id="a300"]').innerText(), /Answer 300\./);
    assert.equal(await page.page.locator('[data-entry-id="a1"]').count(), 0);

    // Changes to a turn that is not built yet are not lost: it is built from the latest copy.
    await page.host(
      events(appended('a1', ' And more.'), updated(toolCall('c1', { turnId: 't1', title: 'Renamed' }))),
    );

    const log = page.page.locator('.transcript');
    for (let i = 0; i < 200 && (await page.page.locator('[data-entry-id="a1"]').count()) === 0; i++) {
      await log.evaluate((element) => (element.scrollTop = 0));
      await page.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done(undefined))));
    }
    assert.match(
      (await page.page.locator('[data-entry-id="a1"]').textContent()) ?? '',
      /Answer 1\. And more\./,
    );
    assert.match((await page.page.locator('[data-entry-id="c1"]').textContent()) ?? '', /Renamed/);
    // Every turn keeps its order, whichever was built first.
    const order = await page.page
      .locator('[data-turn-id]')
      .evaluateAll((sections) => sections.map((section) => section.getAttribute('data-turn-id')));
    assert.deepEqual(
      order,
      turns.map((t) => t.id),
    );
  });

  it('keeps turns in chunks that look like one list: same separators across chunks, only the latest turn always laid out', async () => {
    const page = await chat.open();
    const { entries, turns } = longChat();
    await page.host(snapshot({ entries, turns }));
    const layout = await page.page.locator('.transcript-content').evaluate((content) => {
      const chunks = Array.from(content.children).filter((child) => child.classList.contains('turn-chunk'));
      const turns = Array.from(content.querySelectorAll<HTMLElement>('.turn'));
      return {
        chunkSizes: chunks.map((chunk) => chunk.childElementCount),
        everyTurnInAChunk: turns.every((turn) => turn.parentElement?.classList.contains('turn-chunk')),
        // Each turn after the first: the separator's margin, padding and border.
        separators: new Set(
          turns
            .slice(1)
            .map(
              (turn) =>
                `${getComputedStyle(turn).marginTop} ${getComputedStyle(turn).paddingTop} ${getComputedStyle(turn).borderTopWidth}`,
            ),
        ).size,
        firstSeparator: getComputedStyle(turns[0] as Element).borderTopWidth,
        // Built turns: content-visibility auto, but the latest's.
        visibility: turns
          .filter((turn) => !turn.classList.contains('turn-deferred'))
          .map((turn) => [turn.dataset.turnId, getComputedStyle(turn).contentVisibility]),
      };
    });
    assert.equal(layout.chunkSizes.length, Math.ceil(TURNS / 32));
    assert.ok(
      layout.chunkSizes.every((size) => size > 0 && size <= 32),
      layout.chunkSizes.join(),
    );
    assert.equal(
      layout.chunkSizes.reduce((sum, size) => sum + size, 0),
      TURNS,
    );
    assert.equal(layout.everyTurnInAChunk, true);
    assert.equal(layout.separators, 1, 'one separator style for every turn, across chunk boundaries too');
    assert.equal(layout.firstSeparator, '0px');
    assert.deepEqual(layout.visibility.at(-1), [`t${TURNS}`, 'visible']);
    assert.ok(layout.visibility.length > 2);
    assert.deepEqual(
      layout.visibility.slice(0, -1).filter(([, visibility]) => visibility !== 'auto'),
      [],
      'every built turn but the latest skips layout off screen',
    );
  });

  it('builds the turns in view after a jump to the middle, and not the far ones', async () => {
    const page = await chat.open();
    const { entries, turns } = longChat();
    await page.host(snapshot({ entries, turns }));
    const log = page.page.locator('.transcript');
    await log.evaluate((element) => (element.scrollTop = element.scrollHeight / 2));
    const frames = () =>
      page.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done(undefined))));
    // Building turns changes heights (and the scroll anchor keeps the view): let it settle.
    for (let i = 0; i < 10; i++) {
      await frames();
    }
    const inView = await log.evaluate((element) => {
      const view = element.getBoundingClientRect();
      return Array.from(element.querySelectorAll<HTMLElement>('[data-turn-id]'))
        .filter((section) => {
          const box = section.getBoundingClientRect();
          return box.bottom > view.top && box.top < view.bottom;
        })
        .map((section) => ({
          id: section.dataset.turnId,
          deferred: section.classList.contains('turn-deferred'),
        }));
    });
    assert.ok(inView.length > 0, 'some turns are in view');
    const middle = Number(inView[0]?.id?.slice(1));
    assert.ok(middle > 20 && middle < TURNS - 20, `the view is in the middle (turn ${middle})`);
    assert.deepEqual(
      inView.filter((section) => section.deferred),
      [],
      'every turn in view is built',
    );
    for (const id of inView.map((section) => section.id)) {
      assert.equal(await page.page.locator(`[data-turn-id="${id}"] [data-entry-id]`).count(), 3, id);
    }
    assert.equal(
      await page.page.locator('[data-entry-id="a1"]').count(),
      0,
      'the first turn is far: not built',
    );
  });

  it('gives turns built late their change card, Restore checkpoint and restored mark, with turn updates made meanwhile', async () => {
    const page = await chat.open();
    const { entries, turns } = longChat();
    const withChanges = turns.map((t) => ({
      ...t,
      checkpointId: `cp-${t.id}`,
      changes: turnChanges([fileChange(`src/${t.id}.ts`, { added: 2, removed: 1 })]),
    }));
    await page.host(snapshot({ entries, turns: withChanges }));
    const card = (turnId: string) => page.page.locator(`.turn-changes[data-turn-id="${turnId}"]`);
    const restore = (turnId: string) =>
      page.page.locator(`section[data-turn-id="${turnId}"] .restore-checkpoint`);
    assert.equal(await card('t300').count(), 1, 'a turn built at once has its card');
    await page.page.locator('[data-entry-id="u300"]').hover();
    assert.equal(await restore('t300').count(), 1);
    assert.equal(await card('t1').count(), 0, 'not built yet');

    // The old turn is decided and restored to before it is built: it shows both once built.
    const first = withChanges[0] as TurnMessage;
    await page.host(
      events(
        turnUpdated({
          ...first,
          restoredAt: 1_700_000_100_000,
          changes: turnChanges([fileChange('src/t1.ts', { added: 2, removed: 1, decision: 'kept' })]),
        }),
      ),
    );

    const log = page.page.locator('.transcript');
    for (let i = 0; i < 200 && (await page.page.locator('[data-entry-id="u1"]').count()) === 0; i++) {
      await log.evaluate((element) => (element.scrollTop = 0));
      await page.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done(undefined))));
    }
    assert.equal(await card('t1').count(), 1);
    assert.equal(await card('t1').locator('.change-row[data-path="/w/src/t1.ts"]').count(), 1);
    await page.page.locator('[data-entry-id="u1"]').hover();
    assert.equal(await restore('t1').count(), 1, 'Restore checkpoint among its message’s actions');
    assert.equal(await page.page.locator('.restored-mark').count(), 1);
    assert.equal(
      await page.page
        .locator('section[data-turn-id="t1"]')
        .evaluate((section) => section.classList.contains('restored-away')),
      true,
    );
    assert.equal(await card('t1').count(), 1, 'one card, not one per update');
  });
});
