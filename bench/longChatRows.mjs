// The webview's memory and idle rows (issue 23) — the long chat's and a streamed answer's — in the bench's
// row format (bench/rows.mjs), from measureWebview's results: printed by `npm run bench` and by
// `node bench/webview.mjs`.

const median = (values) => {
  const sorted = values.filter((value) => value !== undefined && !Number.isNaN(value)).sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length === 0
    ? NaN
    : sorted.length % 2 === 1
      ? sorted[middle]
      : (sorted[middle - 1] + sorted[middle]) / 2;
};
const mb = (value) => (Number.isNaN(value) ? 'n/a' : `${value.toFixed(1)} MB`);

/** [figure, value, baseline, goal, met, note?] rows for `turns` turns, medians of the runs. */
export function longChatMemoryRows(long, turns) {
  const of = (pick) => median(long.map(pick));
  const heap = of((r) => r.builtHeapMb);
  const rss = of((r) => r.builtRssMb);
  const own = (when, field) => of((r) => r[when]?.[field]);
  const settledPrivate = own('settledRenderer', 'privateMb');
  const switched = of((r) => r.switchedHeapMb / r.warmEmptyHeapMb);
  const idle = of((r) => r.settledIdleCpuPercent);
  const runningIdle = of((r) => r.runningIdleCpuPercent);
  return [
    [
      `${turns.toLocaleString('en-US')} turns built top to bottom: webview JS heap; the page's renderer, private (RSS)`,
      `${mb(heap)}; ${mb(own('builtRenderer', 'privateMb'))} (${mb(own('builtRenderer', 'rssMb'))}) right after the walk, ${mb(settledPrivate)} (${mb(own('settledRenderer', 'rssMb'))}) 10 s later; at most ${of((r) => r.mostBuilt)} turns built at once`,
      `the empty page: heap ${mb(of((r) => r.emptyHeapMb))}, renderer ${mb(own('emptyRenderer', 'privateMb'))} (${mb(own('emptyRenderer', 'rssMb'))}); the chat just opened ${mb(own('openRenderer', 'privateMb'))} (${mb(own('openRenderer', 'rssMb'))})`,
      '≤ 150 MB',
      Number.isNaN(settledPrivate) ? undefined : heap <= 150 && settledPrivate <= 150,
      `RSS counts the Chromium binary's shared pages (≈ 110 MB); all the browser's renderers together: ${mb(rss)}`,
    ],
    [
      'switched to an empty chat: webview JS heap',
      `${mb(of((r) => r.switchedHeapMb))}, ${switched.toFixed(2)}× the empty page with its code run; ${of((r) => r.switchedHeapMb / r.emptyHeapMb).toFixed(2)}× the cold empty page`,
      `the empty page after a 20-turn chat: ${mb(of((r) => r.warmEmptyHeapMb))}; cold: ${mb(of((r) => r.emptyHeapMb))}`,
      'within 10 %',
      Number.isNaN(switched) ? undefined : switched <= 1.1,
      "beyond the warm page: V8's compiled code and its number-to-string cache (64 KB, a GC root grown once), no chat objects (bench/heapDiff.mjs)",
    ],
    [
      'idle 10 s with that chat on screen: renderer main-thread CPU',
      `${idle.toFixed(2)} % settled; ${of((r) => r.idleCpuPercent).toFixed(2)} % in the 10 s right after the walk`,
      `the empty page idle as long: ${of((r) => r.emptyIdleCpuPercent).toFixed(2)} %`,
      '≤ 1 %',
      Number.isNaN(idle) ? undefined : idle <= 1,
    ],
    [
      'idle 10 s with a turn running but silent (that chat, the agent thinking): renderer main-thread CPU',
      `${runningIdle.toFixed(2)} %`,
      `the empty page idle as long: ${of((r) => r.emptyIdleCpuPercent).toFixed(2)} %`,
      '≤ 1 %',
      Number.isNaN(runningIdle) ? undefined : runningIdle <= 1,
    ],
  ];
}

/**
 * A message keeps at most `acpAgents.chat.maxMessageCharacters` (default 1,000,000) of its start and a quarter
 * as many of its end (src/core/thread/textBudget.ts): the most of one answer that ever reaches the view.
 */
const MAX_MESSAGE_MB_IN_VIEW = 1.25;

/** The webview's heap per MB of a streamed answer, and what that makes of the longest answer the host lets through. */
export function streamMemoryRows(stream) {
  const perMb = median(stream.map((r) => r.heapPerMb));
  const bound = perMb * MAX_MESSAGE_MB_IN_VIEW;
  return [
    [
      'webview JS heap per MB of a streamed answer (the DOM and the store)',
      `${mb(perMb)} per MB streamed (${(median(stream.map((r) => r.chars)) / 1e6).toFixed(1)} MB workload); a 10 MB answer reaches the view as at most ${MAX_MESSAGE_MB_IN_VIEW} MB (the host's caps), so ≤ ${mb(bound)}`,
      'the page with the turn started, before the stream',
      'bounded by the caps, within the 150 MB page budget',
      Number.isNaN(bound) ? undefined : bound <= 150,
    ],
  ];
}
