// A Chromium trace's main-thread time by kind of work (script, style, layout, paint, GC…): shared by the
// stream's profile (bench/streamProfile.mjs) and the round trip's (bench/roundTrip.ts).

/** Trace event names → the kind of work a reader of a profile knows them by. */
const KINDS = [
  // First: V8's GC events are named V8.GC… and would otherwise count as script.
  [/GC/, 'gc'],
  [/^(FunctionCall|EvaluateScript|v8\.|V8\.|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks)/, 'script'],
  [/^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet|InvalidateLayout|ScheduleStyleRecalculation)/, 'style'],
  [/^(Layout|UpdateLayerTree|LayoutShift)/, 'layout'],
  [/^(PrePaint|Paint|PaintImage|Layerize|UpdateLayer|CompositeLayers|Commit|Rasterize)/, 'paint'],
  [/^(ParseHTML|HTMLDocumentParser)/, 'parse HTML'],
];

/** The kind of work of a trace event, by its name. */
export const kindOf = (name) => KINDS.find(([pattern]) => pattern.test(name))?.[1] ?? `other (${name})`;

/**
 * Self time (ms) by kind for one thread's complete events: an event's time minus its children's, so nested
 * events (a layout forced inside a script) are counted once, where they ran. The thread's own CPU time
 * (`tdur`) where the trace has it, so a loaded machine's waits for a core are not counted. Events that start
 * in [from, to) count.
 */
export function selfTimes(events, from = -Infinity, to = Infinity) {
  const sorted = events
    .filter((e) => e.ph === 'X' && e.dur !== undefined && e.ts >= from && e.ts < to)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const totals = new Map();
  const stack = [];
  const close = (until) => {
    while (stack.length > 0 && stack.at(-1).end <= until) {
      const done = stack.pop();
      totals.set(done.kind, (totals.get(done.kind) ?? 0) + done.self / 1000);
    }
  };
  for (const event of sorted) {
    close(event.ts);
    const parent = stack.at(-1);
    const cost = event.tdur ?? event.dur;
    if (parent) {
      parent.self -= cost;
    }
    stack.push({ kind: kindOf(event.name), end: event.ts + event.dur, self: cost });
  }
  close(Infinity);
  return totals;
}

/** The thread ids (`pid:tid`) of the renderers' main threads and their dedicated workers, from the trace's metadata. */
export function threads(events) {
  const names = events.filter((e) => e.ph === 'M' && e.name === 'thread_name');
  const key = (e) => `${e.pid}:${e.tid}`;
  const main = names.filter((e) => e.args.name === 'CrRendererMain').map(key);
  const workers = names.filter((e) => String(e.args.name).startsWith('DedicatedWorker')).map(key);
  return { main, workers };
}

/** The events of the threads `keys` (from `threads`). */
export const onThreads = (events, keys) => events.filter((e) => keys.includes(`${e.pid}:${e.tid}`));

/** "script 12.3, layout 4.5, …": the kinds of at least 0.5 ms, largest first. */
export const formatTimes = (totals) =>
  [...totals]
    .filter(([, ms]) => ms >= 0.5)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, ms]) => `${kind} ${ms.toFixed(1)}`)
    .join(', ');

/** The sum of a `selfTimes` result. */
export const totalTime = (totals) => [...totals.values()].reduce((sum, ms) => sum + ms, 0);
