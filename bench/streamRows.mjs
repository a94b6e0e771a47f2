// The webview streaming rows (bench/webviewStream.mjs's runs), as `npm run bench` and `node bench/webview.mjs`
// print them: [figure, value, baseline, goal, met (true / false / undefined), note?].
import { MARKDOWN_WORKER } from './webviewPage.mjs';
import { HOST_CADENCE } from './workloads.mjs';
import {
  fastestStreamVsOnce,
  median,
  ONCE_RENDERS,
  READ_FROM_MESSAGE,
  slowestFrames,
  streamVsOnce,
  warmingFrames,
} from './webviewStream.mjs';

const ms = (value) => (value === undefined || Number.isNaN(value) ? 'n/a' : `${value.toFixed(1)} ms`);
const ratio = (value) => `${value.toFixed(2)}×`;
const FRAME_MS = 1000 / 60;

/** Where the stream's markdown is planned in this run (BENCH_MARKDOWN_WORKER=0: on the page). */
const DESIGN = `${MARKDOWN_WORKER ? 'markdown planned in the worker, applied on the page' : 'BENCH_MARKDOWN_WORKER=0: markdown planned on the page'}; ${HOST_CADENCE}`;

/**
 * The three streaming goals for `runs` (streamOnce's) of a `chars`-character answer in `chunks` chunks, each
 * beside what the bare view (`bare`: bareStreamOnce's runs, chunked and flat) pays for the same frames.
 */
export function streamingRows(runs, { chars, chunks, bare }) {
  const figure = streamVsOnce(runs);
  const fastest = fastestStreamVsOnce(runs);
  const warming = warmingFrames(runs);
  const messages = runs[0].messages;
  const beyond = (figure.streamMs - figure.onceMs) / messages;
  const onceRange = runs.flatMap((r) => r.onceScriptsMs);
  const cpu = median(runs.map((r) => r.streamCpuMs));
  const onceCpu = median(runs.map((r) => r.onceCpuMs));
  const workerCpu = median(runs.map((r) => r.streamWorkerCpuMs));
  const idleCpu = median(runs.map((r) => r.idleFramesCpuMs));
  const changingCpu = median(runs.map((r) => r.changingFramesCpuMs));
  const slowest = median(runs.map((r) => Math.max(...r.frameMs)));
  const p95 = median(runs.map((r) => percentile(r.frameMs, 95)));
  const size = `${(chars / 1e6).toLocaleString('en-US')} MB mixed markdown in ${chunks.toLocaleString('en-US')} chunks`;
  const floor = bareFigures(bare, 'chunked');
  return [
    [
      `webview streaming, ${size}: the page's script (handle + render + apply)`,
      `${ratio(figure.ratio)} (median stream ${ms(figure.streamMs)} vs ${ms(figure.onceMs)}; streams ${runs.map((r) => r.streamScriptMs.toFixed(0)).join(', ')} ms)`,
      `render the final text once: median of ${figure.onceRenders} renders, ${ONCE_RENDERS} after each stream, ${Math.min(...onceRange).toFixed(0)}–${Math.max(...onceRange).toFixed(0)} ms`,
      '≤ 1.5×',
      figure.ratio <= 1.5,
      `${DESIGN}; ${ms(beyond)} a frame beyond the render once over ${messages} frames; each frame at its fastest of the runs ${ratio(fastest.ratio)} (${ms(fastest.streamMs)} vs the fastest render once ${ms(fastest.onceMs)}); script a frame, the first ${warming.span} messages ${ms(warming.firstMs)}, the last ${warming.span} ${ms(warming.lastMs)}`,
    ],
    [
      `webview streaming, ${size}: the renderer's main-thread CPU`,
      `${ratio(cpu / onceCpu)} (${ms(cpu)} vs ${ms(onceCpu)})`,
      'render the final text once',
      '≤ 4×',
      cpu / onceCpu <= 4,
      `${DESIGN}; the markdown worker's thread meanwhile ${ms(workerCpu)}; of the main thread's, ${ms(idleCpu)} is the floor of ${messages} frames stepped with nothing to render (Chromium's frame and the bench's stepping): ${ratio((cpu - idleCpu) / onceCpu)} above it; the finished page with one word added in each of as many frames (Chromium's style, layout and paint of a frame that changes anything there, whoever changes it) ${ms(changingCpu)}: the stream's own DOM changes and script ${ms(cpu - changingCpu)}, ${ratio((cpu - changingCpu) / onceCpu)} the render once; the bare view in the page's chunks (the floor row: the same DOM changes in the same frames, none of the page's script) ${ms(floor.cpu)}, ${ratio(floor.cpu / onceCpu)} the render once, Chromium's for those changes in those frames; ours above it ${ms(cpu - floor.cpu)}, ${ratio((cpu - floor.cpu) / onceCpu)} the render once`,
    ],
    [
      'slowest frame while streaming (handle + render + apply + layout)',
      `${ms(slowest)}; p95 ${ms(p95)}`,
      'one frame, 16.7 ms',
      '≤ 16.7 ms',
      slowest <= FRAME_MS,
      `each run's slowest: ${slowestFrames(runs)}; the bare view in the page's chunks, the same frames (apply + layout, none of the page's script): slowest ${ms(floor.slowest)}, p95 ${ms(floor.p95)}`,
    ],
    bareStreamRow(bare, { cpu, slowest, p95, size }),
  ];
}

/** The median of the bare view's runs in one layout (`chunked` or `flat`): CPU, slowest and p95 frame. */
function bareFigures(bare, layout) {
  return {
    cpu: median(bare.map((run) => run[layout].cpuMs)),
    slowest: median(bare.map((run) => Math.max(...run[layout].frameMs))),
    p95: median(bare.map((run) => percentile(run[layout].frameMs, 95))),
  };
}

/** The streaming floor: the bare view's figures (bench/bareStream.mjs), in chunks and flat, beside the stream's. */
function bareStreamRow(bare, stream) {
  const chunked = bareFigures(bare, 'chunked');
  const flat = bareFigures(bare, 'flat');
  const described = (figures) =>
    `${ms(figures.cpu)} of main-thread CPU, frames p95 ${ms(figures.p95)}, slowest ${ms(figures.slowest)}`;
  return [
    `webview streaming floor, ${stream.size}: a bare view showing the same answer in the same frames`,
    `in the page's chunks ${described(chunked)}; in one flat list ${described(flat)}`,
    `the stream: ${described(stream)}`,
    '—',
    undefined,
    `the markdown planner's operations for each host message, worked out beforehand and applied by plain DOM calls (no store, zod, worker or page script); ours ${ratio(stream.cpu / chunked.cpu)} the chunked floor's CPU; the chunks save the flat list's ${ratio(flat.cpu / chunked.cpu)}`,
  ];
}

/**
 * The stream while the reader reads above (readingAboveOnce's runs): the page's main-thread CPU and its p95
 * frame from message READ_FROM_MESSAGE on, beside the same messages followed at the bottom.
 */
export function readingAboveRow(runs, { chars }) {
  const of = (key) => ({
    cpu: median(runs.map((r) => r[key].cpuMs)),
    p95: median(runs.map((r) => percentile(r[key].frameMs, 95))),
    slowest: median(runs.map((r) => Math.max(...r[key].frameMs))),
  });
  const reading = of('readingAbove');
  const followed = of('followed');
  const described = (figures) =>
    `${ms(figures.cpu)}; frames p95 ${ms(figures.p95)}, slowest ${ms(figures.slowest)}`;
  return [
    `webview streaming, ${(chars / 1e6).toLocaleString('en-US')} MB, read from above (the reader scrolled to the top after message ${READ_FROM_MESSAGE} of ${runs[0].messages}): the renderer's main-thread CPU from there`,
    described(reading),
    `the same messages followed at the bottom: ${described(followed)}`,
    '—',
    undefined,
    `${DESIGN}; ${ratio(followed.cpu / reading.cpu)} less while reading above: the chunk the newest blocks go into skips layout and paint off screen`,
  ];
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
