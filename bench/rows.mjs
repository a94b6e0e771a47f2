// The bench's table rows: [figure, value, baseline, goal, met (true / false / undefined), note?].

export const ms = (value) => `${value.toFixed(1)} ms`;

/** The middle value (the mean of the two middle ones for an even count). */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

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
      `+${ms(c.noChangeMs)} (median of ${c.noChangeRuns.length}${c.parts ? `; git diff-files alone ${ms(c.parts.diffFilesMs)}, our ${c.parts.stamped.toLocaleString('en-US')} folder stamps alone ${ms(c.parts.stampsMs)}, side by side ${ms(c.parts.bothMs)}` : ''}; the rule-file walk a full look adds: ${ms(c.ruleWalkMs)})`,
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

/** Host memory rows (bench/hostMemory.ts): a long chat shown, a 10 MB answer streamed. */
export function hostMemoryRows(memory, problem) {
  if (!memory) {
    return [['host heap: a 2,000-turn chat / a 10 MB answer', 'n/a', '—', '≤ 50 MB', undefined, problem]];
  }
  const { stream, halfStream } = memory;
  const held = memory.longChatHeapMb - memory.emptyChatHeapMb;
  const kept = stream.endHeapMb - stream.startHeapMb;
  const mb = (value) => `${value.toFixed(1)} MiB`;
  const load = `load average ${memory.loadAverage.map((l) => l.toFixed(1)).join(' → ')}`;
  const answerMb = (stream.chunks * stream.chunkChars) / 1_000_000;
  const halfKept = halfStream.endHeapMb - halfStream.startHeapMb;
  // What the second half of the answer added to what the host keeps, per chunk of it.
  const perChunk = ((kept - halfKept) * 1024 * 1024) / (stream.chunks - halfStream.chunks);
  return [
    [
      `host heap for a chat of ${memory.turns.toLocaleString('en-US')} turns (6,000 entries), read from its journal and shown`,
      `+${mb(held)} (${mb(memory.longChatHeapMb)} vs ${mb(memory.emptyChatHeapMb)} with an empty chat shown; after a GC)`,
      'the same host with an empty chat',
      '≤ 50 MB',
      held <= 50,
      load,
    ],
    [
      `host heap while a ${answerMb} MB answer streams (${stream.chunks.toLocaleString('en-US')} chunks of ${stream.chunkChars.toLocaleString('en-US')} characters)`,
      `per chunk past the thread's caps: ${perChunk.toFixed(1)} bytes (kept after the turn +${mb(kept)}, after half the answer +${mb(halfKept)}); peak while streaming +${mb(stream.peakHeapMb - stream.startHeapMb)} (${stream.viewMessages} view messages, ${(stream.shownChars / 1_000_000).toFixed(2)} MB of them: the message's head and end)`,
      `half the answer, ${answerMb / 2} MB`,
      '≤ 100 bytes per chunk (bounded by the caps: a message keeps its head and its end)',
      perChunk <= 100,
      load,
    ],
  ];
}

const spreadText = ({ p50, p95, max }) => `p50 ${p50} / p95 ${p95} / max ${max} ms`;

/**
 * Chunk → DOM rows, one per rate, with where the time goes: agent → SDK (bare client), agent → view
 * message (our host, batching included), view message → webview (VS Code's postMessage, code-server's
 * websocket: the difference of the medians), webview → DOM (the render frame).
 */
export function latencyRows(latency, hostLatency, problem) {
  if (!latency || !hostLatency) {
    return [
      ['agent chunk → visible in the DOM, p95 (real VS Code)', 'n/a', '—', '≤ 40 ms', undefined, problem],
    ];
  }
  return latency.runs.map((run) => {
    const host = hostLatency.runs.find((h) => h.rate === run.rate);
    const where = [
      host ? `agent → SDK p50 ${host.chunkToSdk.p50} / p95 ${host.chunkToSdk.p95}` : undefined,
      host
        ? `→ host view message p50 ${host.chunkToViewMessage.p50} / p95 ${host.chunkToViewMessage.p95}`
        : undefined,
      `→ webview message p50 ${run.chunkToWebview.p50} / p95 ${run.chunkToWebview.p95}`,
      `webview → DOM p50 ${run.webviewToDom.p50} / p95 ${run.webviewToDom.p95}`,
      `next frame p95 ${run.chunkToPaint.p95}`,
    ]
      .filter(Boolean)
      .join('; ');
    const rate = run.rate === 'burst' ? 'all at once (burst)' : `${run.rate} chunks/s`;
    return [
      `agent chunk → visible in the DOM, ${run.chunks.toLocaleString('en-US')} chunks at ${rate} (real VS Code)`,
      spreadText(run.chunkToDom),
      '—',
      run.rate === 'burst' ? '— (queueing)' : '≤ 40 ms p95',
      run.rate === 'burst' ? undefined : run.chunkToDom.p95 <= 40,
      `ms from the agent's write: ${where}; load average ${latency.loadAverage.map((l) => l.toFixed(1)).join(' → ')}`,
    ];
  });
}

/** Activation rows: the whole call, and the two parts measured inside the extension host. */
export function activationRows(activation, problem) {
  if (!activation) {
    return [['activation (real VS Code)', 'n/a', '—', '≤ 30 ms', undefined, problem]];
  }
  const of = (key) => median(activation.map((run) => run[key]));
  const runs = (key) => activation.map((run) => run[key].toFixed(1)).join(', ');
  return [
    [
      'activation (code-server, production bundle: getExtension().activate() to its return)',
      `${ms(of('activationMs'))} wall (runs: ${runs('activationMs')}); extension host CPU ${ms(of('activationCpuMs'))} (runs: ${runs('activationCpuMs')})`,
      '—',
      '≤ 30 ms',
      of('activationMs') <= 30,
      `wall time swings with the machine's load (load average ${runs('loadAverage')}); the CPU time does not`,
    ],
    [
      '  of which evaluating dist/extension.js / activate() itself (inside the extension host)',
      `${ms(of('bundleEvaluationMs'))} / ${ms(of('activateMs'))}`,
      '—',
      '—',
      undefined,
      'the rest is VS Code reading the file and its own activation bookkeeping',
    ],
    [
      'first use: loading and building the chat (dist/chat.js), when the view opens',
      `${ms(of('chatLoadMs'))} wall, ${ms(of('chatLoadCpuMs'))} CPU (runs: ${runs('chatLoadMs')})`,
      '—',
      '—',
      undefined,
      'not part of activation: nothing heavy loads before the view opens',
    ],
  ];
}

/**
 * The worktree rows, from the last `BENCH_ONLY=bigworkspace` run (bench/worktrees.mjs writes
 * bench-results/worktrees.json): a chat's worktree made, and a 500-file change applied back.
 */
export function worktreeRows(worktrees) {
  if (!worktrees) {
    return [
      [
        "a chat's worktree of the 200,000-file workspace; a 500-file change applied back",
        'n/a',
        'git worktree add; git diff | git apply',
        '—',
        undefined,
        'BENCH_ONLY=bigworkspace npm run bench measures it (minutes)',
      ],
    ];
  }
  const size = `${worktrees.files.toLocaleString('en-US')}-file workspace`;
  const when = `run of ${worktrees.date}, load average ${worktrees.loadAverage.join(' → ')}`;
  return [
    [
      `a chat's worktree of the ${size} (git worktree add with no hook or driver, outside the repository)`,
      ms(worktrees.createMs),
      `plain git worktree add of the same commit: ${ms(worktrees.plainCreateMs)}`,
      '—',
      undefined,
      when,
    ],
    [
      `Apply of a ${worktrees.changed}-file change from a worktree of the ${size} (three-way, each file checked)`,
      `${ms(worktrees.planMs + worktrees.writeMs)} (plan ${ms(worktrees.planMs)}, write ${ms(worktrees.writeMs)}; ${worktrees.written} files written)`,
      `git diff | git apply of the same change: ${ms(worktrees.gitApplyMs)}`,
      '—',
      undefined,
      `the plan snapshots both work trees (a stat of every file, in a scratch index) before merging; ${when}`,
    ],
  ];
}

/** The idle cost of chats' status (bench/statusIdle.ts writes bench-results/statusidle.json). */
export function statusIdleRows(idle) {
  if (!idle) {
    return [
      [
        'idle cost of ten running chats’ status',
        'n/a',
        'zero chats',
        'no timer',
        undefined,
        'BENCH_ONLY=statusidle npm run bench',
      ],
    ];
  }
  const others = (run) => run.wakeUps - (run.lockHeartbeats ?? 0);
  const text = (run) =>
    `${run.wakeUps} timer wake-ups (${run.lockHeartbeats ?? 0} of them the chat files' lock refresh), ${run.timersCreated} timers made, host CPU ${ms(run.cpuMs)} over ${(run.windowMs / 1000).toFixed(0)} s`;
  return [
    [
      `idle cost of ${idle.running.chats} running chats’ status (turns waiting on the agent, nothing streaming)`,
      text(idle.running),
      `${idle.none.chats} chats running: ${text(idle.none)}`,
      'no timer of the status while nothing changes',
      others(idle.running) <= others(idle.none) && idle.running.timersCreated <= idle.none.timersCreated,
      `the extension host's process alone (the agents are their own); the lock refresh is the journal's, every 20 s for all chats; load average ${idle.loadAverage.join(' → ')}; run of ${idle.date}`,
    ],
  ];
}
