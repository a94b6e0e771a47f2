import assert from 'node:assert/strict';
import type { ThreadEntryMessage, TurnMessage } from '../../src/protocol';
import {
  added,
  ended,
  events,
  fileChange,
  message,
  snapshot,
  started,
  toolCall,
  turn,
  turnChanges,
  updated,
} from './support/builders';
import { useChatPages } from './support/suite';
import { builtIds, frame, scrollUntil, walk } from './support/transcriptWalk';

/**
 * Short turns before the long one (enough that it is far from the top) and after it (it is not the
 * latest: the latest turn is never evicted whole).
 */
const SHORT_BEFORE = 100;
const SHORT_AFTER = 20;
const CALLS = 1000;
const BIG = `t${SHORT_BEFORE + 1}`;

/** Short turns, one whose agent ran CALLS tool calls before its answer (and changed a file), short turns. */
function chatWithLongTurn(): { entries: ThreadEntryMessage[]; turns: TurnMessage[] } {
  const entries: ThreadEntryMessage[] = [];
  const turns: TurnMessage[] = [];
  const done = { status: 'completed', stopReason: 'end_turn', endedAt: 1_700_000_000_001 } as const;
  const short = (t: number) => {
    turns.push(turn(`t${t}`, done));
    entries.push(message('user', `u${t}`, `Question ${t}`, { turnId: `t${t}` }));
    entries.push(message('agent', `a${t}`, `Answer ${t}.`, { turnId: `t${t}` }));
  };
  for (let t = 1; t <= SHORT_BEFORE; t++) {
    short(t);
  }
  turns.push(turn(BIG, { ...done, changes: turnChanges([fileChange('src/all.ts', { added: 9 })]) }));
  entries.push(message('user', 'u-big', 'Fix every file', { turnId: BIG }));
  for (let c = 1; c <= CALLS; c++) {
    entries.push(toolCall(`c${c}`, { turnId: BIG, title: `Read file ${c}`, status: 'completed' }));
  }
  entries.push(message('agent', 'a-big', 'All fixed.', { turnId: BIG }));
  for (let t = SHORT_BEFORE + 2; t <= SHORT_BEFORE + SHORT_AFTER + 1; t++) {
    short(t);
  }
  return { entries, turns };
}

/** Node.DOCUMENT_POSITION_PRECEDING: the node compared with comes before. */
const PRECEDING = 2;

describe('webview: a turn of many entries', () => {
  const chat = useChatPages();

  it('opens with a few dozen of its entries built, builds the rest in order as they near view, and evicts it whole when far', async () => {
    const page = await chat.open();
    const { entries, turns } = chatWithLongTurn();
    const order = new Map(entries.map((entry, index) => [entry.id, index]));
    // Every entry element put in the page while the chat opens, also one taken out again right after (an
    // entry is added to its turn's section once that is in the page, so each is a node added of its own).
    await page.page.evaluate(() => {
      const counted = window as unknown as { builtEntries: number };
      counted.builtEntries = 0;
      new MutationObserver((records) => {
        for (const node of records.flatMap((record) => Array.from(record.addedNodes))) {
          if (node instanceof HTMLElement && node.matches('[data-entry-id]')) {
            counted.builtEntries++;
          }
        }
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.host(snapshot({ entries, turns }));
    const opened = await page.page.evaluate(
      () => (window as unknown as { builtEntries: number }).builtEntries,
    );
    assert.ok(opened > 0 && opened < 200, `${opened} of ${entries.length} entries built to open the chat`);
    const first = await builtIds(page.page);
    const section = page.page.locator(`section[data-turn-id="${BIG}"]`);
    const layout = () =>
      section.evaluate((element) => ({
        first: element.querySelector('[data-entry-id]')?.getAttribute('data-entry-id'),
        // The change card after every part: the turn's entries, then its card.
        cardLast: element
          .querySelector('.turn-changes')
          ?.compareDocumentPosition(Array.from(element.querySelectorAll('.turn-part')).at(-1) ?? element),
      }));

    const seen = new Set(first);
    await scrollUntil(page.page, -1500, order, seen, (ids) => ids.includes('u1'));
    const missing = entries.filter((entry) => !seen.has(entry.id)).map((entry) => entry.id);
    assert.deepEqual(missing, [], 'every entry was built on the way up');
    assert.equal(await section.evaluate((element) => element.classList.contains('turn-deferred')), true);
    assert.equal(await page.page.locator('[data-entry-id="c500"]').count(), 0, 'far below: evicted');

    // Back down: built again from its parts as they near view, in order, its card last.
    await scrollUntil(page.page, 1500, order, new Set(), (ids) => ids.includes('a-big'));
    assert.deepEqual(await layout(), { first: 'u-big', cardLast: PRECEDING });
  });

  it('is its real size from the chat’s first frame: a view scrolled into its end at once is not carried to its start', async () => {
    const page = await chat.open();
    const { entries, turns } = chatWithLongTurn();
    await page.host(snapshot({ entries, turns }));
    // At once, as the chat opens: the top of the view 300 px above the end of the long turn, as it is laid out
    // now. Sized at an estimate (a few hundred pixels), the turn would grow to its real size once in view,
    // held at its top: the view would show the turn's first entries, not its last.
    await page.page.locator(`section[data-turn-id="${BIG}"]`).evaluate((element) => {
      const log = element.closest('.transcript') as HTMLElement;
      log.scrollTop += element.getBoundingClientRect().bottom - log.getBoundingClientRect().top - 300;
    });
    const order = new Map(entries.map((entry, index) => [entry.id, index]));
    await scrollUntil(page.page, 0, order, new Set(), () => true);
    const shown = await page.page.locator('.transcript').evaluate((log) => {
      const view = log.getBoundingClientRect();
      return Array.from(log.querySelectorAll<HTMLElement>('[data-entry-id]'))
        .filter((entry) => {
          const box = entry.getBoundingClientRect();
          return box.bottom > view.top && box.top < view.bottom;
        })
        .map((entry) => entry.dataset.entryId ?? '');
    });
    // Where the view settles also depends on the short turns below, laid out only now (the view may end at
    // the bottom of the chat); it is never at the long turn's start, 100,000 px away.
    const start = new Set(['u-big', ...Array.from({ length: 60 }, (_, index) => `c${index + 1}`)]);
    assert.deepEqual(
      shown.filter((id) => start.has(id)),
      [],
      `the view is not at the turn's start: ${shown.join(', ')}`,
    );
  });

  it('while it runs: keeps its newest entries, evicts its far parts, and shows steps left running as ended once it ends', async () => {
    const page = await chat.open();
    await page.host(snapshot({ entries: [], turns: [] }));
    const running = turn('t1', { status: 'running' });
    await page.host(events(started(running), added(message('user', 'u1', 'Fix every file'))));
    for (let batch = 0; batch < 30; batch++) {
      const calls = Array.from({ length: 20 }, (_, i) =>
        added(
          toolCall(`c${batch * 20 + i + 1}`, { title: `Step ${batch * 20 + i + 1}`, status: 'in_progress' }),
        ),
      );
      await page.host(events(...calls));
      await frame(page.page);
    }
    for (let i = 0; i < 5; i++) {
      await frame(page.page);
    }
    const ids = await builtIds(page.page);
    assert.equal(ids.at(-1), 'c600', 'the newest entry is built, at the end');
    assert.ok(ids.includes('u1'), 'the running turn’s own entries stay');
    assert.equal(ids.includes('c100'), false, 'a part far above the bottom is evicted');
    assert.ok((await page.page.locator('.turn-part.turn-deferred').count()) > 0);

    // A step in a part let go far above asks for permission: its part is built again, the question shown.
    const permission = {
      key: 'p1',
      status: 'pending' as const,
      options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' as const }],
    };
    await page.host(events(updated(toolCall('c100', { title: 'Step 100', status: 'pending', permission }))));
    const asking = page.page.locator('[data-entry-id="c100"] .permission-buttons');
    assert.equal(await asking.count(), 1, 'the question is in the page');
    for (let i = 0; i < 5; i++) {
      await frame(page.page);
    }
    assert.equal(await asking.count(), 1, 'and stays while it waits, however far from view');
    await page.host(
      events(updated(toolCall('c100', { title: 'Step 100', status: 'in_progress', permission: undefined }))),
    );

    await page.host(events(ended({ ...running, status: 'completed', stopReason: 'end_turn', endedAt: 1 })));
    const endedStates = () =>
      page.page
        .locator('.tool-card')
        .evaluateAll((cards) => cards.map((card) => (card as HTMLElement).dataset.ended));
    const atEnd = await endedStates();
    assert.ok(atEnd.length >= 30, `${atEnd.length} steps built at the bottom`);
    assert.deepEqual(
      atEnd.filter((state) => state !== 'true'),
      [],
      'the steps built when it ended show as ended',
    );
    const order = new Map([
      ['u1', 0],
      ...Array.from({ length: 600 }, (_, i) => [`c${i + 1}`, i + 1] as const),
    ]);
    const seen = new Set<string>();
    await scrollUntil(page.page, -1500, order, seen, (_ids, all) => all.size === 601);
    assert.equal(seen.size, 601, 'every step was built on the way up');
    const states = await endedStates();
    assert.ok(states.length > 0);
    assert.deepEqual(
      states.filter((state) => state !== 'true'),
      [],
      'every step the turn left running shows as ended, in any part',
    );
  });

  it('evicts and rebuilds its parts at their height: not a pixel moves, up or down', async () => {
    const page = await chat.open();
    const entries: ThreadEntryMessage[] = [message('user', 'u1', 'Fix every file')];
    for (let c = 1; c <= 600; c++) {
      // Some steps open (running), some folded, so parts differ in height.
      entries.push(toolCall(`c${c}`, { title: `Step ${c}`, status: c % 7 === 0 ? 'failed' : 'completed' }));
    }
    entries.push(message('agent', 'a1', 'All **fixed**.'));
    const done = turn('t1', { status: 'completed', stopReason: 'end_turn', endedAt: 1 });
    await page.host(snapshot({ entries, turns: [done] }));
    // Up with the browser's scroll anchoring, as users have it: parts built above the view move nothing.
    await walk(page.page, -700, (top) => top === 0);
    // Down without it, which would hide a wrong height: parts evicted above keep theirs to the pixel.
    await page.page.locator('.transcript').evaluate((log) => (log.style.overflowAnchor = 'none'));
    const down = await walk(page.page, 700, (top, max) => top >= max - 1);
    assert.ok(down.steps > 20, `a long walk (${down.steps} steps)`);
    assert.equal(await page.page.locator('[data-entry-id="c1"]').count(), 1, 'the turn’s own entries stay');
    assert.equal(await page.page.locator('[data-entry-id="c100"]').count(), 0, 'a far part is evicted');
    assert.deepEqual([...down.heights].length, 1, 'the scroll height never changed on the way down');
  });
});
