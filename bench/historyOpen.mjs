// A long session the agent replayed (session/load of one of its own sessions, then every reopen from the
// journal): the long chat's entries with no turn, as a replay gives them. Opened from its snapshot, as the
// chat view gets it: first paint, the page's main-thread CPU and the elements built, beside the same entries
// in turns (the long chat's row of the same run).
import { openSnapshotOnce } from './webviewPage.mjs';
import { median } from './webviewStream.mjs';
import { longChatSnapshot } from './workloads.mjs';

/** `longChatSnapshot(turns)`'s entries as a replayed session holds them: no turn ids, no turns. */
function replayedSnapshot(turns) {
  const snapshot = longChatSnapshot(turns);
  const thread = snapshot.view.chat.thread;
  thread.entries = thread.entries.map(({ turnId: _turnId, ...entry }) => entry);
  thread.turns = [];
  return snapshot;
}

/** Opens the replayed history of `turns` exchanges on a fresh page. */
export function historyOpenOnce(browser, origin, turns) {
  return openSnapshotOnce(browser, origin, replayedSnapshot(turns));
}

/** The row: `history` from historyOpenOnce, `long` from the long chat's runs (the same entries in turns). */
export function historyOpenRows(history, long) {
  if (history.length === 0) {
    return [];
  }
  const openMs = median(history.map((r) => r.openMs));
  const ms = (value) => (value === undefined || Number.isNaN(value) ? 'n/a' : `${value.toFixed(1)} ms`);
  return [
    [
      `open a replayed session of ${history[0].entries.toLocaleString('en-US')} entries (no turns), first paint`,
      `${ms(openMs)}; main-thread CPU ${ms(median(history.map((r) => r.cpuMs)))}; ${median(history.map((r) => r.elements))} elements`,
      `the same entries in turns: ${ms(median(long.map((r) => r.openMs)))}`,
      '≤ 150 ms',
      openMs <= 150,
      'a replay is built and evicted in groups as turns are (each from a user message, at most 30 entries)',
    ],
  ];
}
