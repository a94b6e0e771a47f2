// The webview's streaming figures: the 2 MB answer streamed as the host posts it, frame by frame, against the
// same final text rendered once (on the same page, several times: one ≈ 0.2–0.3 s render swings with the
// machine's load, so the baseline is the median of many); the naive re-render; the heap a streamed answer holds.
/* global window, document, requestAnimationFrame */
import { freshPage, heapMb, stage, withCpu } from './webviewPage.mjs';
import { CHAT_ID, streamingSnapshot, streamMessages } from './workloads.mjs';

/** Full re-renders timed for the naive figure (evenly spread over the stream), then extrapolated. */
const NAIVE_SAMPLES = 12;

/** A host message with nothing in it: a frame stepped as the stream's, with nothing to render. */
const EMPTY_MESSAGE = { type: 'thread_events', chatId: CHAT_ID, events: [] };

/** Renders of the final text once after each stream: the baseline is their median over all runs. */
export const ONCE_RENDERS = 5;

/** The page's main thread for one message: handling it, the view's render, applying the worker's markdown. */
const script = (frame) => frame.handle + frame.render + frame.apply;

/** A stepped frame's whole time on the page's main thread: its script and the layout it caused. */
export const frameTotal = (frame) => script(frame) + frame.layout;

/**
 * Streams `text` as the host would and times every frame; then, on the same page, renders the final
 * text once ONCE_RENDERS times (each replaces what is shown, as a snapshot of the chat does).
 */
export async function streamOnce(browser, origin, text) {
  const { page, problems } = await freshPage(browser, origin);
  try {
    await page.evaluate((start) => window.__step(start), streamingSnapshot());
    await stage(page, streamMessages(text));
    const stream = await withCpu(() =>
      page.evaluate(async () => {
        const frames = await window.__stepStaged();
        const shown = document.querySelector('[data-entry-id="a1"] .markdown')?.textContent?.length ?? 0;
        return { frames, shown };
      }),
    );
    const onces = [];
    let nodes = 0;
    for (let i = 0; i < ONCE_RENDERS; i++) {
      await stage(page, streamingSnapshot(text));
      const once = await withCpu(() =>
        page.evaluate(async () => {
          const once = await window.__step(window.__takeStaged());
          return { once, nodes: document.getElementsByTagName('*').length };
        }),
      );
      onces.push({ ...once.result.once, cpuMs: once.cpuMs });
      nodes = once.result.nodes;
    }
    // The frames' floor: as many stepped frames with nothing to render (what Chromium and the bench's own
    // stepping cost the renderer's main thread, whatever the page does).
    const idle = await withCpu(() =>
      page.evaluate(
        async ({ count, message }) => {
          for (let i = 0; i < count; i++) {
            await window.__step(message);
          }
        },
        { count: stream.result.frames.length, message: EMPTY_MESSAGE },
      ),
    );
    const changing = await changingFramesCpu(page, stream.result.frames.length);
    if (problems.length > 0) {
      throw new Error(`page problems: ${problems.join(' | ')}`);
    }
    const { frames, shown } = stream.result;
    const onceScripts = onces.map(script);
    return {
      chars: text.length,
      messages: frames.length,
      streamScriptMs: frames.reduce((sum, frame) => sum + script(frame), 0),
      streamLayoutMs: frames.reduce((sum, frame) => sum + frame.layout, 0),
      frameMs: frames.map(frameTotal),
      frameScriptMs: frames.map(script),
      frameLayoutMs: frames.map((frame) => frame.layout),
      onceScriptsMs: onceScripts,
      onceScriptMs: median(onceScripts),
      onceLayoutMs: median(onces.map((once) => once.layout)),
      shownChars: shown,
      nodes,
      streamCpuMs: stream.cpuMs,
      streamWorkerCpuMs: stream.workerCpuMs,
      idleFramesCpuMs: idle.cpuMs,
      changingFramesCpuMs: changing.cpuMs,
      onceCpuMs: median(onces.map((once) => once.cpuMs)),
    };
  } finally {
    await page.close();
  }
}

/**
 * The main-thread CPU of `count` frames stepped as the stream's were, on the finished page, each changing as
 * little as a frame can: one word added to the answer's last paragraph. That is Chromium's own style, layout
 * and paint of a frame that changes anything on this page (what any streaming view pays per frame); the
 * stream's CPU above it is what its own DOM changes and script cost.
 */
export async function changingFramesCpu(page, count) {
  return withCpu(() =>
    page.evaluate(
      async ({ count, message }) => {
        const paragraphs = document.querySelectorAll('[data-entry-id="a1"] .markdown p');
        const last = paragraphs[paragraphs.length - 1];
        for (let i = 0; i < count; i++) {
          last.append(' word');
          await window.__step(message);
        }
      },
      { count, message: EMPTY_MESSAGE },
    ),
  );
}

/** Messages streamed at the bottom before the reader scrolls up to read (the reading-above figure). */
export const READ_FROM_MESSAGE = 20;

/**
 * The stream's main-thread CPU and frames after READ_FROM_MESSAGE messages, on two pages: one following the
 * answer at the bottom, one whose reader scrolled to the top to read what came first (the transcript stops
 * following; the answer's newest blocks land off screen).
 */
export async function readingAboveOnce(browser, origin, text) {
  const messages = streamMessages(text);
  const timedRest = async (readAbove) => {
    const { page, problems } = await freshPage(browser, origin);
    try {
      await page.evaluate((start) => window.__step(start), streamingSnapshot());
      await stage(page, messages.slice(0, READ_FROM_MESSAGE));
      await page.evaluate(() => window.__stepStaged());
      if (readAbove) {
        // As a reader's scroll: the scroll event stops the following, then a frame.
        await page.evaluate(async () => {
          document.querySelector('.transcript').scrollTop = 0;
          await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        });
      }
      await stage(page, messages.slice(READ_FROM_MESSAGE));
      const rest = await withCpu(() =>
        page.evaluate(async () => {
          const frames = await window.__stepStaged();
          return { frames, scrollTop: document.querySelector('.transcript').scrollTop };
        }),
      );
      if (problems.length > 0) {
        throw new Error(`page problems: ${problems.join(' | ')}`);
      }
      if (readAbove && rest.result.scrollTop !== 0) {
        throw new Error(`the reader was moved to ${rest.result.scrollTop} px`);
      }
      return { cpuMs: rest.cpuMs, frameMs: rest.result.frames.map(frameTotal) };
    } finally {
      await page.close();
    }
  };
  return { followed: await timedRest(false), readingAbove: await timedRest(true), messages: messages.length };
}

/**
 * What a streamed answer holds in the page (the DOM, the store) per MB: heap after a GC, turn started vs text
 * streamed. On a page of its own: a forced GC just before the timed stream slows its first frames.
 */
export async function streamHeapOnce(browser, origin, text) {
  const { page, problems } = await freshPage(browser, origin);
  try {
    await page.evaluate((start) => window.__step(start), streamingSnapshot());
    const startHeapMb = await heapMb(page);
    await page.evaluate(async (messages) => {
      for (const message of messages) {
        await window.__step(message);
      }
    }, streamMessages(text));
    const streamedHeapMb = await heapMb(page);
    if (problems.length > 0) {
      throw new Error(`page problems: ${problems.join(' | ')}`);
    }
    return { chars: text.length, heapPerMb: (streamedHeapMb - startHeapMb) / (text.length / 1e6) };
  } finally {
    await page.close();
  }
}

/**
 * The naive way: every message re-renders the whole message so far (a snapshot of the text so
 * far, which our view renders from scratch). Timed at NAIVE_SAMPLES evenly spread points of the
 * stream and extrapolated to every message (the mean sampled cost times the number of messages):
 * running it whole would take minutes.
 */
export async function naiveOnce(browser, origin, text) {
  const { page, problems } = await freshPage(browser, origin);
  try {
    const count = streamMessages(text).length;
    const perMessage = text.length / count;
    const points = Array.from({ length: NAIVE_SAMPLES }, (_, i) =>
      Math.round(((i + 0.5) / NAIVE_SAMPLES) * count * perMessage),
    );
    const costs = await page.evaluate(
      async (snapshots) => {
        const out = [];
        for (const snapshot of snapshots) {
          const frame = await window.__step(snapshot);
          out.push(frame.handle + frame.render + frame.apply);
        }
        return out;
      },
      points.map((end) => streamingSnapshot(text.slice(0, end))),
    );
    if (problems.length > 0) {
      throw new Error(`page problems: ${problems.join(' | ')}`);
    }
    const mean = costs.reduce((sum, cost) => sum + cost, 0) / costs.length;
    return { scriptMs: mean * count, sampled: costs.length, messages: count };
  } finally {
    await page.close();
  }
}

export function median(values) {
  const sorted = values.filter((value) => value !== undefined).sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * The streaming figure from streamOnce's runs: the median stream's script time over the median of
 * every render-once of every run (ONCE_RENDERS a run, interleaved with the streams).
 */
export function streamVsOnce(runs) {
  const onces = runs.flatMap((run) => run.onceScriptsMs);
  const streamMs = median(runs.map((run) => run.streamScriptMs));
  const onceMs = median(onces);
  return { ratio: streamMs / onceMs, streamMs, onceMs, onceRenders: onces.length };
}

/**
 * Robust to the machine's load (waiting for a core only adds): each frame's script time as its
 * minimum over the runs, summed, beside the fastest render of the final text once.
 */
export function fastestStreamVsOnce(runs) {
  const frameMinima = runs
    .map((run) => run.frameScriptMs)
    .reduce((min, frames) => min.map((ms, i) => Math.min(ms, frames[i] ?? ms)), runs[0]?.frameScriptMs ?? []);
  const streamMs = frameMinima.reduce((sum, ms) => sum + ms, 0);
  const onceMs = Math.min(...runs.flatMap((run) => run.onceScriptsMs));
  return {
    ratio: streamMs / onceMs,
    streamMs,
    onceMs,
    onceRenders: runs.flatMap((run) => run.onceScriptsMs).length,
  };
}

/** Where each run's slowest frame was: the message it rendered and its script and layout time, as text. */
export function slowestFrames(runs) {
  return runs
    .map((run) => {
      const index = run.frameMs.indexOf(Math.max(...run.frameMs));
      const script = run.frameScriptMs[index].toFixed(1);
      return `message ${index} (script ${script} + layout ${run.frameLayoutMs[index].toFixed(1)} ms)`;
    })
    .join(', ');
}

/**
 * The script time per frame of a stream's first and last `span` messages (median over the runs): the
 * messages are alike, so the first ones' excess is the page's code still cold.
 */
export function warmingFrames(runs, span = 100) {
  const mean = (values) => values.reduce((sum, ms) => sum + ms, 0) / values.length;
  return {
    span,
    firstMs: median(runs.map((run) => mean(run.frameScriptMs.slice(0, span)))),
    lastMs: median(runs.map((run) => mean(run.frameScriptMs.slice(-span)))),
  };
}
