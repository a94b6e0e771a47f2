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
  const switched = of((r) => r.switchedHeapMb / r.warmEmptyHeapMb);
  const idle = of((r) => r.idleCpuPercent);
  return [
    [
      `${turns.toLocaleString('en-US')} turns built top to bottom: webview JS heap / renderer RSS`,
      `${mb(heap)} / ${mb(rss)} (at most ${of((r) => r.mostBuilt)} turns built at once)`,
      `the empty page's heap ${mb(of((r) => r.emptyHeapMb))}`,
      '≤ 150 MB',
      Number.isNaN(rss) ? undefined : heap <= 150 && rss <= 150,
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
      `${idle.toFixed(2)} %`,
      `the empty page idle as long: ${of((r) => r.emptyIdleCpuPercent).toFixed(2)} %`,
      '≤ 1 %',
      Number.isNaN(idle) ? undefined : idle <= 1,
    ],
  ];
}
