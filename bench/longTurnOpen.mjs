// A chat whose last turn holds 1,000 tool calls (an agent's long autonomous run), opened from its snapshot
// as the chat view gets it after a reload: first paint, the page's main-thread CPU and the elements built,
// beside the same turn holding only its last 60 entries (what is built at once).
import { openSnapshotOnce } from './webviewPage.mjs';
import { median } from './webviewStream.mjs';
import { viewWith } from './workloads.mjs';

const CALLS = 1000;
const SHOWN = 60;

/** The turn: its question, CALLS finished tool calls with a word from the agent every 10th, the answer. */
function longTurnEntries() {
  const entries = [{ kind: 'user', id: 'u1', turnId: 't1', text: 'Fix every lint error', attachments: [] }];
  for (let c = 1; c <= CALLS; c++) {
    if (c % 10 === 0) {
      entries.push({
        kind: 'agent',
        id: `a${c}`,
        turnId: 't1',
        text: `Fixed **${c}** so far.`,
        attachments: [],
      });
    }
    entries.push({
      kind: 'tool_call',
      id: `c${c}`,
      turnId: 't1',
      toolCallId: `call${c}`,
      title: `Edit src/file${c}.ts`,
      toolKind: 'edit',
      status: 'completed',
      content: [],
      locations: [],
    });
  }
  return entries;
}

const TURN = { id: 't1', status: 'completed', stopReason: 'end_turn', startedAt: 1, endedAt: 2 };

function openOnce(browser, origin, entries) {
  return openSnapshotOnce(browser, origin, viewWith(entries, [TURN]));
}

/** The long turn and, beside it, the same turn holding only its last SHOWN entries, each on a fresh page. */
export async function longTurnOpenOnce(browser, origin) {
  const entries = longTurnEntries();
  return {
    whole: await openOnce(browser, origin, entries),
    shown: await openOnce(browser, origin, [entries[0], ...entries.slice(-(SHOWN - 1))]),
  };
}

export function longTurnOpenRows(runs) {
  if (runs.length === 0) {
    return [];
  }
  const of = (pick) => median(runs.map(pick));
  const openMs = of((r) => r.whole.openMs);
  const ms = (value) => (value === undefined || Number.isNaN(value) ? 'n/a' : `${value.toFixed(1)} ms`);
  return [
    [
      `open a chat whose last turn holds ${CALLS.toLocaleString('en-US')} tool calls (${runs[0].whole.entries.toLocaleString('en-US')} entries), first paint`,
      `${ms(openMs)}; main-thread CPU ${ms(of((r) => r.whole.cpuMs))}; ${of((r) => r.whole.elements)} elements`,
      `the turn with its last ${SHOWN} entries only: ${ms(of((r) => r.shown.openMs))}, ${of((r) => r.shown.elements)} elements`,
      '≤ 150 ms',
      openMs <= 150,
      'a long turn is built and evicted in parts of 30 entries (webview/render/turnParts.ts)',
    ],
  ];
}
