// A one-off probe (issue 34), not part of `npm run bench`: what one short turn holds in the page's JS heap, object
// by object, and what holds each — the ledger behind the short-turn rows (bench/shortTurns.mjs). Ping turns are
// streamed in as a live chat gets them; two heap snapshots, TURNS turns apart, are grouped by kind of object and
// by the object and field that retain it (the first strong retainer the snapshot lists), and the growth is divided
// by TURNS. The first TURNS count turns built near the view (about 62) and turns evicted; the next TURNS are all
// evicted by the end, so the second ledger is a turn far from view. V8's compiled code and Blink's objects are left out.
// `node bench/heapPerTurn.mjs` after `node esbuild.mjs --production` (TURNS=200, ROWS=25).
/* global window */
import { takeSnapshot } from './heapSnapshot.mjs';
import { stepTurns } from './shortTurns.mjs';
import { withProbePage } from './webviewPage.mjs';
import { viewWith } from './workloads.mjs';

const TURNS = Number(process.env.TURNS ?? 200);
const ROWS = Number(process.env.ROWS ?? 25);

/** The name an object is counted under: its constructor's for objects, its type for the rest. */
function kindOf(snapshot, index) {
  const { nodes, strings } = snapshot;
  const meta = snapshot.snapshot.meta;
  const width = meta.node_fields.length;
  const type = meta.node_types[0][nodes[index * width + meta.node_fields.indexOf('type')]];
  const name = strings[nodes[index * width + meta.node_fields.indexOf('name')]];
  return type === 'object' || type === 'native' ? name.slice(0, 40) : `(${type})`;
}

/**
 * Whether an object counts in the JS heap's figure: not V8's compiled code, and not Blink's own objects (the DOM,
 * its style and layout; "native" in the snapshot, as V8's internals are too, whose names start "system / ").
 */
function inJsHeap(snapshot, index) {
  const meta = snapshot.snapshot.meta;
  const width = meta.node_fields.length;
  const type = meta.node_types[0][snapshot.nodes[index * width + meta.node_fields.indexOf('type')]];
  return type !== 'code' && (type !== 'native' || kindOf(snapshot, index).startsWith('system / '));
}

/** Bytes and count per "kind ← retainer.field" of a snapshot. */
function ledger(snapshot) {
  const meta = snapshot.snapshot.meta;
  const nodeWidth = meta.node_fields.length;
  const edgeWidth = meta.edge_fields.length;
  const [edgeCountAt, sizeAt] = ['edge_count', 'self_size'].map((f) => meta.node_fields.indexOf(f));
  const [edgeTypeAt, edgeNameAt, toAt] = ['type', 'name_or_index', 'to_node'].map((f) =>
    meta.edge_fields.indexOf(f),
  );
  const edgeTypes = meta.edge_types[0];
  const count = snapshot.nodes.length / nodeWidth;
  const retainer = new Array(count);
  let edge = 0;
  for (let from = 0; from < count; from++) {
    for (let k = snapshot.nodes[from * nodeWidth + edgeCountAt]; k > 0; k--, edge++) {
      const type = edgeTypes[snapshot.edges[edge * edgeWidth + edgeTypeAt]];
      const to = snapshot.edges[edge * edgeWidth + toAt] / nodeWidth;
      if (type === 'weak' || type === 'shortcut' || retainer[to] !== undefined) {
        continue;
      }
      const named = type === 'property' || type === 'internal' || type === 'context';
      const field = named ? snapshot.strings[snapshot.edges[edge * edgeWidth + edgeNameAt]] : `[${type}]`;
      retainer[to] = `${kindOf(snapshot, from)}.${String(field).slice(0, 30)}`;
    }
  }
  const rows = new Map();
  for (let index = 0; index < count; index++) {
    if (!inJsHeap(snapshot, index)) {
      continue;
    }
    const kind = kindOf(snapshot, index);
    const key = `${kind} ← ${retainer[index] ?? '(root)'}`;
    const row = rows.get(key) ?? { count: 0, bytes: 0 };
    row.count++;
    row.bytes += snapshot.nodes[index * nodeWidth + sizeAt];
    rows.set(key, row);
  }
  return rows;
}

/** Prints what grew from `before` to `after`, per turn. */
function printGrowth(title, before, after) {
  const rows = [];
  for (const [key, row] of after) {
    const old = before.get(key) ?? { count: 0, bytes: 0 };
    rows.push({ key, count: (row.count - old.count) / TURNS, bytes: (row.bytes - old.bytes) / TURNS });
  }
  const total = rows.reduce((sum, row) => sum + row.bytes, 0);
  rows.sort((a, b) => b.bytes - a.bytes);
  console.log(`${title}: ${total.toFixed(0)} B a turn`);
  for (const row of rows.slice(0, ROWS)) {
    console.log(`${row.bytes.toFixed(1).padStart(8)} B ${row.count.toFixed(2).padStart(6)}×  ${row.key}`);
  }
}

await withProbePage(async ({ page, cdp }) => {
  // The code warmed first, as the short-turn rows do: 20 turns, then the empty chat again.
  await page.evaluate((empty) => window.__step(empty), viewWith([], []));
  await stepTurns(page, 0, 20);
  await page.evaluate((empty) => window.__step(empty), viewWith([], []));
  const empty = ledger(await takeSnapshot(cdp));
  await stepTurns(page, 0, TURNS);
  const first = ledger(await takeSnapshot(cdp));
  await stepTurns(page, TURNS, TURNS);
  const next = ledger(await takeSnapshot(cdp));
  printGrowth(`the first ${TURNS} turns (the latest built near the view)`, empty, first);
  printGrowth(`the next ${TURNS} turns (a turn far from view)`, first, next);
});
