// A probe, not in the bench: where the page's main thread spends one 2 MB stream (the bench's streaming
// workload, frame by frame as the bench steps it), from a Chromium trace. It prints the main thread's self time
// by kind of work (script, style, layout, paint, GC…), the markdown worker's, and the ten slowest frames split
// the same way; it writes the trace to bench-results/stream-trace.json (open it in chrome://tracing or
// DevTools' Performance panel). Run after a production build: `node esbuild.mjs --production &&
// node bench/streamProfile.mjs` (BENCH_MARKDOWN_WORKER=0 for the page without the worker; PROBE_CSS='…' adds
// style rules to the page, to try a change of the styles before making it).
/* global window, performance */
import { mkdirSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { formatTimes as format, onThreads, selfTimes, threads, totalTime as total } from './traceTimes.mjs';
import { freshPage, stage, startServer } from './webviewPage.mjs';
import { changingFramesCpu } from './webviewStream.mjs';
import { mixedMarkdown, streamingSnapshot, streamMessages } from './workloads.mjs';

const BYTES = Number(process.env.BENCH_BYTES ?? 2_000_000);

async function traceStream(browser, origin, text) {
  const extraCss = process.env.PROBE_CSS;
  const { page } = await freshPage(browser, origin, { bypassCSP: Boolean(extraCss) });
  if (extraCss) {
    await page.addStyleTag({ content: extraCss });
  }
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  const finished = new Promise((done) => cdp.once('Tracing.tracingComplete', done));
  await page.evaluate((start) => window.__step(start), streamingSnapshot());
  await stage(page, streamMessages(text));
  await cdp.send('Tracing.start', {
    categories: `devtools.timeline,disabled-by-default-devtools.timeline,v8,v8.execute,blink.user_timing${process.env.PROBE_INVALIDATIONS ? ',disabled-by-default-devtools.timeline.invalidationTracking' : ''}`,
    transferMode: 'ReportEvents',
  });
  const frames = await page.evaluate(async () => {
    const timed = [];
    for (const [index, message] of window.__takeStaged().entries()) {
      performance.mark(`frame ${index} start`);
      const frame = await window.__step(message);
      performance.mark(`frame ${index} end`);
      timed.push(frame);
    }
    return timed;
  });
  await cdp.send('Tracing.end');
  await finished;
  const changing = await changingFramesCpu(page, frames.length);
  await page.close();
  return { events, frames, changing };
}

async function main() {
  const { server, origin } = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-dev-shm-usage'],
  });
  try {
    const { events, frames, changing } = await traceStream(browser, origin, mixedMarkdown(BYTES));
    mkdirSync('bench-results', { recursive: true });
    writeFileSync('bench-results/stream-trace.json', JSON.stringify({ traceEvents: events }));
    const { main: mainThreads, workers } = threads(events);
    const on = (keys) => onThreads(events, keys);
    const mainEvents = on(mainThreads);
    const mainTotals = selfTimes(mainEvents);
    const workerTotals = selfTimes(on(workers));
    console.log(`stream of ${BYTES} bytes in ${frames.length} view messages`);
    console.log(`page main thread, self time ${total(mainTotals).toFixed(1)} ms: ${format(mainTotals)}`);
    console.log(`markdown worker, self time ${total(workerTotals).toFixed(1)} ms: ${format(workerTotals)}`);
    console.log(
      `the finished page, one word added in each of ${frames.length} frames stepped as the stream's: main-thread CPU ${changing.cpuMs?.toFixed(1)} ms`,
    );
    const slowest = frames
      .map((frame, index) => ({ index, ms: frame.handle + frame.render + frame.apply + frame.layout, frame }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    console.log('slowest frames (message: the bench’s figure; the trace in that frame’s window):');
    const marks = new Map(events.filter((e) => e.cat?.includes('user_timing')).map((e) => [e.name, e.ts]));
    for (const { index, ms, frame } of slowest) {
      const within = selfTimes(mainEvents, marks.get(`frame ${index} start`), marks.get(`frame ${index} end`));
      console.log(`  #${index}: ${ms.toFixed(1)} ms (script ${(frame.handle + frame.render + frame.apply).toFixed(1)}, layout ${frame.layout.toFixed(1)}) — ${format(within)}`);
    }
  } finally {
    await browser.close();
    server.close();
  }
}

await main();
