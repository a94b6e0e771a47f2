// Short turns (issue 34): 200 "ping" turns streamed into the chat page as a live chat gets them, against a
// bare message list holding the same 400 messages (what a plain chat view keeps: the messages as data and a
// paragraph each). Elements, JS heap and Blink's objects per turn, all over the empty page they started from.
/* global window, document */
import { snapshotMb } from './heapSnapshot.mjs';
import { elementCount, freshPage, heapMb, stepAll } from './webviewPage.mjs';
import { CHAT_ID, viewWith } from './workloads.mjs';

export const SHORT_TURNS = 200;

/** When the first ping turn starts: an epoch time in ms, as the host's `Date.now()` gives (not a small integer). */
const FIRST_STARTED_AT = Date.UTC(2026, 11, 4, 9, 0, 0);

/** A checkpoint id of the shape the shadow-git store makes: `git1:<folder key>.<commit>`. */
function checkpointIdOf(n) {
  return `git1:5f0c3a9e1b7d2c64.${n.toString(16).padStart(40, 'c')}`;
}

/**
 * One "ping" turn as the host sends it, with the fields a real one has: the turn starts (its checkpoint taken,
 * its start time stamped) with the user's message, the answer streams in as one chunk, the turn ends.
 */
export function pingTurn(n) {
  const turnId = `t${n}`;
  const startedAt = FIRST_STARTED_AT + n * 2000;
  const started = { id: turnId, status: 'running', startedAt, checkpointId: checkpointIdOf(n) };
  const events = (list) => ({ type: 'thread_events', chatId: CHAT_ID, events: list });
  return [
    events([
      { type: 'turn_started', turn: started },
      {
        type: 'entry_added',
        entry: { kind: 'user', id: `u${n}`, turnId, text: `ping ${n}`, attachments: [] },
      },
    ]),
    events([
      { type: 'entry_added', entry: { kind: 'agent', id: `a${n}`, turnId, text: '', attachments: [] } },
      { type: 'text_appended', entryId: `a${n}`, text: `You said: ping ${n}` },
    ]),
    events([
      {
        type: 'turn_ended',
        turn: { ...started, status: 'completed', stopReason: 'end_turn', endedAt: startedAt + 1500 },
      },
    ]),
  ];
}

/** Elements, the JS heap after a GC, and the snapshot's figures. */
async function measure(page) {
  return { elements: await elementCount(page), heapMb: await heapMb(page), ...(await snapshotMb(page)) };
}

/** Steps `count` ping turns from turn `from + 1` into the page, each message in a frame of its own. */
export async function stepTurns(page, from, count) {
  await stepAll(page, Array.from({ length: count }, (_, i) => pingTurn(from + i + 1)).flat());
}

/**
 * Our page: the empty chat, then SHORT_TURNS ping turns. The page's code is warmed first (20 turns, then
 * the empty chat again), so the heap counts what the turns hold, not the code they compiled; the next
 * SHORT_TURNS (all evicted far from view by then) give what a turn not built costs.
 */
async function ourTurns(browser, origin) {
  const { page, problems } = await freshPage(browser, origin);
  try {
    await page.evaluate((empty) => window.__step(empty), viewWith([], []));
    await stepTurns(page, 0, 20);
    await page.evaluate((empty) => window.__step(empty), viewWith([], []));
    const before = await measure(page);
    await stepTurns(page, 0, SHORT_TURNS);
    const after = await measure(page);
    const built = await page.evaluate(
      () => document.querySelectorAll('section.turn:not(.turn-deferred)').length,
    );
    const perBuiltTurn = await page.evaluate(() => {
      const turn = [...document.querySelectorAll('section.turn:not(.turn-deferred)')].at(-2);
      return turn ? turn.getElementsByTagName('*').length + 1 : 0;
    });
    await stepTurns(page, SHORT_TURNS, SHORT_TURNS);
    const evicted = await measure(page);
    const perEvicted = (key) => (evicted[key] - after[key]) * (1024 / SHORT_TURNS);
    if (problems.length > 0) {
      throw new Error(`page problems: ${problems.join(' | ')}`);
    }
    return {
      before,
      after,
      built,
      perBuiltTurn,
      evictedKbPerTurn: perEvicted('heapMb'),
      evictedBlinkKbPerTurn: perEvicted('blinkMb'),
    };
  } finally {
    await page.close();
  }
}

/** The bare list: a page with the same messages as data and a paragraph each in one list. */
async function bareList(browser) {
  const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
  try {
    await page.setContent('<!DOCTYPE html><html><body><div id="list"></div></body></html>');
    const before = await measure(page);
    await page.evaluate((count) => {
      const messages = [];
      const list = document.getElementById('list');
      for (let n = 1; n <= count; n++) {
        for (const [role, text] of [
          ['user', `ping ${n}`],
          ['agent', `You said: ping ${n}`],
        ]) {
          messages.push({ role, text });
          const item = document.createElement('div');
          item.className = `message ${role}`;
          const paragraph = document.createElement('p');
          paragraph.textContent = text;
          item.append(paragraph);
          list.append(item);
        }
      }
      window.__messages = messages;
    }, SHORT_TURNS);
    return { before, after: await measure(page) };
  } finally {
    await page.close();
  }
}

/** One run: ours and the bare list, per turn. */
export async function shortTurnsOnce(browser, origin) {
  const ours = await ourTurns(browser, origin);
  const bare = await bareList(browser);
  const per = (run, key) => (run.after[key] - run.before[key]) / SHORT_TURNS;
  return {
    elementsPerTurn: per(ours, 'elements'),
    heapKbPerTurn: per(ours, 'heapMb') * 1024,
    codeKbPerTurn: per(ours, 'codeMb') * 1024,
    builtTurns: ours.built,
    elementsPerBuiltTurn: ours.perBuiltTurn,
    evictedHeapKbPerTurn: ours.evictedKbPerTurn,
    evictedBlinkKbPerTurn: ours.evictedBlinkKbPerTurn,
    blinkKbPerTurn: per(ours, 'blinkMb') * 1024,
    bareBlinkKbPerTurn: per(bare, 'blinkMb') * 1024,
    bareElementsPerTurn: per(bare, 'elements'),
    bareHeapKbPerTurn: per(bare, 'heapMb') * 1024,
    bareCodeKbPerTurn: per(bare, 'codeMb') * 1024,
  };
}

/** The short-turn rows: elements and heap per turn beside the bare list's. */
export function shortTurnRows(runs) {
  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  };
  const of = (key) => median(runs.map((run) => run[key]));
  const elements = of('elementsPerTurn');
  const bareElements = of('bareElementsPerTurn');
  const heap = of('heapKbPerTurn');
  const bareHeap = of('bareHeapKbPerTurn');
  const code = of('codeKbPerTurn');
  const bareCode = of('bareCodeKbPerTurn');
  const blink = of('blinkKbPerTurn');
  const bareBlink = of('bareBlinkKbPerTurn');
  const turns = `${SHORT_TURNS} short turns ("ping N" → "You said: ping N")`;
  return [
    [
      `${turns}, streamed live: elements per turn`,
      `${elements.toFixed(1)} (${of('builtTurns').toFixed(0)} turns built near the view, ${of('elementsPerBuiltTurn').toFixed(0)} elements each; the rest placeholders)`,
      `a bare message list of the same messages: ${bareElements.toFixed(1)}`,
      '≤ the bare list',
      elements <= bareElements,
    ],
    [
      `${turns}, streamed live: JS heap per turn (after a GC)`,
      `${heap.toFixed(2)} KB, of which ${code.toFixed(2)} KB V8's compiled code (functions optimised during the run; it levels off, not kept per turn: docs/performance.md); without it ${(heap - code).toFixed(2)} KB; a turn evicted far from view, as the next ${SHORT_TURNS} are: ${of('evictedHeapKbPerTurn').toFixed(2)} KB — its data in the store, its group and placeholder`,
      `the bare list (the messages as data, a paragraph each): ${bareHeap.toFixed(2)} KB, without its compiled code ${(bareHeap - bareCode).toFixed(2)} KB`,
      '≤ the bare list',
      heap <= bareHeap,
    ],
    [
      `${turns}, streamed live: Blink's objects per turn (heap snapshot: the DOM, its layout and style)`,
      `${blink.toFixed(2)} KB; with the JS heap ${(blink + heap).toFixed(2)} KB, ${(blink + heap - code).toFixed(2)} KB without the compiled code; a turn evicted far from view: ${of('evictedBlinkKbPerTurn').toFixed(2)} KB — its placeholder's box, attributes and inline style`,
      `the bare list: ${bareBlink.toFixed(2)} KB, with its JS heap ${(bareBlink + bareHeap).toFixed(2)} KB`,
      "none of its own: what the JS heap's row leaves out",
      undefined,
    ],
  ];
}
