// The long chat's memory and idle rows (issue 23), in the bench's row format (bench/rows.mjs), from
// measureWebview's `long` results: printed by `npm run bench` and by `node bench/webview.mjs`.

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
      'beyond the warm page: compiled code only (bench/heapDiff.mjs)',
    ],
    [
      'idle 10 s with that chat on screen: renderer main-thread CPU',
      `${idle.toFixed(2)} % settled; ${of((r) => r.idleCpuPercent).toFixed(2)} % in the 10 s right after the walk`,
      `the empty page idle as long: ${of((r) => r.emptyIdleCpuPercent).toFixed(2)} %`,
      '≤ 1 %',
      Number.isNaN(idle) ? undefined : idle <= 1,
    ],
  ];
}
