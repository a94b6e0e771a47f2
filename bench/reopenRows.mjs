// The reopen and round-trip rows (bench/reopen.ts, a real VS Code), in the bench's row format (bench/rows.mjs).

import { median, ms } from './rows.mjs';

const list = (values) => values.map((v) => v.toFixed(0)).join(', ');
const loadText = (design) => `load average ${design.loadAverage.map((l) => l.toFixed(1)).join(' → ')}`;

/**
 * Reopen and round-trip rows (bench/reopen.ts, real VS Code): showing the hidden chat view with the page
 * kept (what the extension does) beside it rebuilt from the host's snapshot, what keeping it holds, and a
 * short prompt's round trip beside the bare agent's.
 */
export function reopenRows(reopen, problem) {
  if (!reopen) {
    return [
      [
        'reopen the chat view / short prompt round trip (real VS Code)',
        'n/a',
        '—',
        '≤ 100 ms',
        undefined,
        problem,
      ],
    ];
  }
  const keep = reopen.designs.find((d) => d.design === 'keep');
  const rebuild = reopen.designs.find((d) => d.design === 'rebuild');
  const rows = [];
  if (keep) {
    const kept = median(keep.runs.map((r) => r.ms));
    rows.push([
      `show the hidden chat view, ${reopen.turns} turns, to the last turn painted (page kept while hidden)`,
      `${ms(kept)} (runs ${list(keep.runs.map((r) => r.ms))}; the view's frame visible after ${ms(median(keep.runs.map((r) => r.iframeVisibleMs)))})`,
      rebuild ? `the page rebuilt on show: ${ms(median(rebuild.runs.map((r) => r.ms)))}` : '—',
      '≤ 100 ms',
      kept <= 100,
      loadText(keep),
    ]);
  }
  if (rebuild) {
    const held = rebuild.shownHeapMb - rebuild.hiddenHeapMb;
    rows.push([
      `  the page rebuilt on show instead (acpAgents.chat.keepViewWhenHidden off)`,
      `${ms(median(rebuild.runs.map((r) => r.ms)))} (runs ${list(rebuild.runs.map((r) => r.ms))}): the host's snapshot reaches the new page after ${ms(median(rebuild.runs.map((r) => r.snapshotMessageMs)))}, its DOM holds the last turn after ${ms(median(rebuild.runs.map((r) => r.domMs)))}`,
      '—',
      '—',
      undefined,
      loadText(rebuild),
    ]);
    rows.push([
      `  what keeping the page costs: the chat page's JS heap (${reopen.turns} turns)`,
      `${held.toFixed(1)} MiB (the workbench renderer's heap after a GC: ${rebuild.shownHeapMb.toFixed(1)} shown, ${rebuild.hiddenHeapMb.toFixed(1)} with the page let go)${keep ? `; kept: ${keep.shownHeapMb.toFixed(1)} shown, ${keep.hiddenHeapMb.toFixed(1)} hidden` : ''}`,
      '—',
      '—',
      undefined,
      'the chat builds only the latest turns and the rest near view, so it holds about as much at 2,000 turns (webview rows above)',
    ]);
  }
  const design = reopen.designs.find((d) => d.roundTrips);
  const trips = design?.roundTrips;
  if (trips) {
    rows.push(...roundTripRows(reopen, design));
  }
  // BENCH_WEBVIEW_SITE=own: the pages ran in a renderer of their own, which the heap and RSS figures leave out.
  const own = ' — webviews on a site of their own (BENCH_WEBVIEW_SITE=own)';
  return reopen.webviewSite === 'own' ? rows.map(([label, ...rest]) => [label + own, ...rest]) : rows;
}

/**
 * The short prompt's round trip beside its floor: the same trip through an empty extension in the same
 * window (its webview posts the line, its extension host posts it back, the page paints it), run
 * alternately with ours. The goal: ours ≤ that floor + 5 ms.
 */
function roundTripRows(reopen, design) {
  const trips = design.roundTrips;
  const ours = median(trips.map((t) => t.ms));
  const bare = median(reopen.bareRoundTripMs);
  const part = (key) => ms(median(trips.map((t) => t[key])));
  const floorTrips = design.floorTrips ?? [];
  const floor = floorTrips.length > 0 ? median(floorTrips.map((t) => t.ms)) : undefined;
  const floorPart = (key) => ms(median(floorTrips.map((t) => t[key])));
  const rows = [];
  if (floor !== undefined) {
    rows.push([
      "round trip's floor: an empty extension's webview → host → webview, painted (same window)",
      `${ms(floor)} (runs ${list(floorTrips.map((t) => t.ms))}); after Enter: its answer's message ${floorPart('answerMessageMs')}, in the DOM ${floorPart('domMs')}`,
      '—',
      '—',
      undefined,
      `VS Code's own transport and paint, which no extension goes below; ${loadText(design)}`,
    ]);
  }
  rows.push([
    'short prompt round trip: Enter → the answer painted (real VS Code, demo agent)',
    `${ms(ours)}${floor === undefined ? '' : `: the floor + ${ms(ours - floor)}${agentPart(reopen, ours - floor)}`} (runs ${list(trips.map((t) => t.ms))}); after Enter: the first host message ${part('firstMessageMs')}, the turn started (the checkpoint taken, the prompt sent) ${part('turnStartedMs')}, the answer's message ${part('answerMessageMs')}, in the DOM ${part('domMs')}`,
    floor === undefined ? 'the floor: not measured' : `the floor above, ${ms(floor)}`,
    '≤ the floor + 5 ms',
    floor === undefined ? undefined : ours <= floor + 5,
    `the bare agent (the same prompt over stdio to a bare SDK client, no sessions kept) ${ms(bare)}, runs ${reopen.bareRoundTripMs.map((v) => v.toFixed(1)).join(', ')} ms; the host pipeline alone (no checkpoint, no VS Code: send → the answer's view message) ${reopen.hostRoundTripMs ? ms(median(reopen.hostRoundTripMs)) : 'n/a'}${reopen.historyRoundTripMs ? `, beside a user's history (${reopen.history.chats} chats of ${reopen.history.turns} turns, none named) ${ms(median(reopen.historyRoundTripMs))}; the trips in VS Code run beside that history too` : ''}; ${loadText(design)}`,
  ]);
  if (floorTrips.length > 0 && [...trips, ...floorTrips].every((t) => t.cpu)) {
    rows.push(tripCpuByRoleRow(trips, floorTrips, design.idleCpu ?? []));
  }
  if (design.tripCpu) {
    rows.push(tripCpuRow(design.tripCpu));
  }
  return rows;
}

/**
 * Of the trip above the floor, the agent's own part: the demo agent's trip as VS Code starts it (its sessions kept
 * in a folder, written before it answers), to a bare SDK client — not ours — and what is left, ours.
 */
function agentPart(reopen, aboveFloor) {
  if (!reopen.agentRoundTripMs?.length) {
    return '';
  }
  const agent = median(reopen.agentRoundTripMs);
  return ` (the agent's own trip as VS Code starts it ${ms(agent)}, runs ${reopen.agentRoundTripMs.map((v) => v.toFixed(1)).join(', ')} ms: ours the other ${ms(aboveFloor - agent)})`;
}

/**
 * What a short prompt's trip costs every process (CPU on all cores, from Enter for 1 s: the trip and the work
 * it leaves), beside the empty extension's: on a machine with few cores, what runs meanwhile is what the
 * trip waits for.
 */
function tripCpuByRoleRow(trips, floorTrips, idle) {
  const windows = (list) => list.map((t) => t.cpu);
  const all = (cpus) => median(cpus.map((cpu) => cpu.all));
  const roles = (cpus) =>
    [...new Set(cpus.flatMap((cpu) => Object.keys(cpu)))]
      .filter((role) => role !== 'all' && role !== 'bench')
      .map((role) => [role, median(cpus.map((cpu) => cpu[role] ?? 0))])
      .filter(([, value]) => value >= 0.5)
      .sort((a, b) => b[1] - a[1])
      .map(([role, value]) => `${role} ${value.toFixed(1)}`)
      .join(', ');
  const figure = (cpus) =>
    `${ms(all(cpus))} (runs ${list(cpus.map((cpu) => cpu.all))}); by role, medians: ${roles(cpus)}`;
  const [ours, floor] = [windows(trips), windows(floorTrips)];
  const bench = (cpus) => ms(median(cpus.map((cpu) => cpu.bench ?? 0)));
  return [
    "  the trip's CPU in every process (all cores), Enter + 1 s",
    `${figure(ours)}; the floor's + ${ms(all(ours) - all(floor))}`,
    `the empty extension's trip: ${figure(floor)}`,
    '—',
    undefined,
    `${idle.length > 0 ? `the same window with no trip (between them): ${figure(idle)}; ` : ''}the scheduler's own count (/proc schedstat; "other": the rest of the machine by its cpuacct, such as processes that ended), so it holds on a loaded machine; the bench's own process (Playwright) left out: ${bench(ours)} and ${bench(floor)}`,
  ];
}

/**
 * What a short prompt's trip costs the window's renderer main thread (its own CPU time, so the machine's load
 * does not count), beside the empty extension's trip: the part of the round trip that is ours to cut.
 */
function tripCpuRow({ ours, floor }) {
  const kinds = (trip) =>
    Object.entries(trip.kinds)
      .filter(([, value]) => value >= 0.5)
      .sort((a, b) => b[1] - a[1])
      .map(([kind, value]) => `${kind} ${value.toFixed(1)}`)
      .join(', ');
  return [
    "  the trip's main-thread CPU in the window's renderer (workbench and pages), Enter + 1.5 s",
    `${ms(ours.ms)}: ${(ours.ms / floor.ms).toFixed(2)}× the empty extension's (runs ${list(ours.runs)}); ${kinds(ours)}`,
    `the empty extension's trip: ${ms(floor.ms)} (runs ${list(floor.runs)}); ${kinds(floor)}`,
    '—',
    undefined,
    'thread time from a Chromium trace: waits for a core do not count, so it holds on a loaded machine',
  ];
}
