// The bench's table rows: [figure, value, baseline, goal, met (true / false / undefined), note?].

const ms = (value) => `${value.toFixed(1)} ms`;

/** One row as `npm run bench` prints it: ✓ met, ✗ not met, blank when there is no goal to meet. */
export function formatRow([figure, value, baseline, goal, met, note]) {
  const mark = met === undefined ? '  ' : met ? '✓ ' : '✗ ';
  return `${mark}${figure}: ${value}  [baseline: ${baseline}; goal ${goal}]${note ? `  (${note})` : ''}`;
}

/**
 * The big-workspace rows, from the last `BENCH_ONLY=bigworkspace` run (bench/bigWorkspace.mjs writes
 * bench-results/bigworkspace.json; it takes minutes, so the default bench does not run it).
 */
export function bigWorkspaceRows(big) {
  if (!big) {
    return [
      [
        '200,000-file workspace: checkpoints and mention index',
        'n/a',
        '—',
        'see issue 23',
        undefined,
        'BENCH_ONLY=bigworkspace npm run bench measures it (minutes)',
      ],
    ];
  }
  const { checkpoints: c, mentions: m } = big;
  const size = `${big.files.toLocaleString('en-US')}-file workspace`;
  const mibs = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  const when = `run of ${big.date ?? 'an earlier bench'}, load average ${big.loadAverage.join(' → ')}`;
  return [
    [
      `first checkpoint of a ${size} (git repository)`,
      `${ms(c.firstMs)}; shadow repository ${mibs(c.firstBytes)} on disk, ${mibs(c.packedBytes)} once packed`,
      `the workspace: ${mibs(big.workspaceBytes)} on disk with its .git`,
      '—',
      undefined,
      c.packMs === undefined
        ? `packed by git gc --auto when the store next opened, holding its queue: that took ${(c.reopenMs / 1000).toFixed(1)} s; ${when}`
        : `packed beside the store's queue right after (git gc --auto, lowest priority): ${(c.packMs / 1000).toFixed(1)} s; the next checkpoint took ${ms(c.nextMs)}${c.packRunning ? ' while it ran' : ''}, the next window's open + first checkpoint ${ms(c.reopenMs)} (waited for no pack); ${when}`,
    ],
    [
      `no-change checkpoint of the ${size}`,
      `+${ms(c.noChangeMs)} (median of ${c.noChangeRuns.length}; of which the rule-file walk ${ms(c.ruleWalkMs)})`,
      'prompt send without checkpoint',
      '≤ +300 ms',
      c.noChangeMs <= 300,
      when,
    ],
    [
      `checkpoint after ${c.edited} changed files, ${size}`,
      `${ms(c.afterEditMs)}; changes() then ${ms(c.changesMs)} (${c.changesListed} listed)`,
      `no-change checkpoint ${ms(c.noChangeMs)}`,
      '—',
      undefined,
      when,
    ],
    [
      `@-mention index of the ${size}: time to first results ("serv"), heap`,
      `${ms(m.firstResultsMs)}, +${mibs(m.heapBytes)} heap (${m.indexed.toLocaleString('en-US')} of ${m.listable.toLocaleString('en-US')} files: the index keeps at most ${m.bound.toLocaleString('en-US')})`,
      '—',
      '—',
      undefined,
      when,
    ],
    ...(m.rankByMs === undefined
      ? [
          [
            `@-mention keystroke, ${size}`,
            m.queries.map((q) => `${JSON.stringify(q.query)} ${ms(q.ms)}`).join(', '),
            '—',
            '≤ 16 ms',
            undefined,
            `over the first ${m.indexed.toLocaleString('en-US')} files only; ${when}`,
          ],
        ]
      : [
          [
            `@-mention keystroke over all ${m.indexed.toLocaleString('en-US')} files, slowest query`,
            `${ms(Math.max(...m.queries.map((q) => q.ms)))} fresh, ${ms(Math.max(...m.queries.map((q) => q.typedWorstMs)))} typing on (${m.queries.map((q) => `${JSON.stringify(q.query)} ${ms(q.ms)} / ${ms(q.typedWorstMs)}`).join(', ')})`,
            `every path scored and sorted (rankBy): ${ms(m.rankByMs)} for "serv"`,
            '≤ 16 ms',
            Math.max(...m.queries.map((q) => Math.max(q.ms, q.typedWorstMs))) <= 16,
            when,
          ],
        ]),
  ];
}
