// Webview benchmark: the production dist/webview.js in headless Chromium under the production CSP (the extension's
// own page, as the webview tests serve it), fed host messages exactly as the extension posts them. Each figure is
// measured `runs` times on a freshly loaded page; the caller takes medians. Prints nothing.
/* global window, document, requestAnimationFrame, performance */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import {
  freshPage,
  heapMb,
  largestRendererMb,
  rendererRssMb,
  stage,
  startServer,
  withCpu,
} from './webviewPage.mjs';
import { longChatMemoryRows, streamMemoryRows } from './longChatRows.mjs';
import { shortTurnRows, shortTurnsOnce } from './shortTurns.mjs';
import { CHUNK_CHARS, longChatSnapshot, mixedMarkdown, withRunningTurn } from './workloads.mjs';
import { median, naiveOnce, readingAboveOnce, streamHeapOnce, streamOnce } from './webviewStream.mjs';
import { readingAboveRow, streamingRows } from './streamRows.mjs';
import { bareStreamOnce } from './bareStream.mjs';
import { terminalStreamOnce, terminalStreamRows } from './terminalStream.mjs';
import { pacedTailOnce, pacedTailRows, tailStreamOnce, tailStreamRows } from './tailStream.mjs';
import { historyOpenOnce, historyOpenRows } from './historyOpen.mjs';
import { longTurnOpenOnce, longTurnOpenRows } from './longTurnOpen.mjs';

/**
 * The heap of an empty page whose code has run: a 20-turn chat opened, scrolled and switched away
 * from, on a page of its own (the long chat's page stays cold for its first paint). What a page
 * holds after switching away from the long chat beyond this is what the chat's size left behind;
 * the rest of its difference from the cold empty page is compiled code (heap snapshot diff:
 * bench/heapDiff.mjs).
 */
async function warmEmptyHeap(browser, origin) {
  const { page } = await freshPage(browser, origin);
  try {
    await page.evaluate((snapshot) => window.__step(snapshot), longChatSnapshot(20));
    await page.evaluate(async () => {
      const log = document.querySelector('.transcript');
      log.scrollTop = 0;
      await new Promise((done) => requestAnimationFrame(done));
    });
    await page.evaluate((empty) => window.__step(empty), longChatSnapshot(0));
    return await heapMb(page);
  } finally {
    await page.close();
  }
}

/**
 * Opens a long chat from its snapshot (first paint), then scrolls it to the top frame by frame.
 * The baseline, on the same page right after: as many frames with nothing to do, timed the same
 * way (what the machine's load alone does to frame times).
 */
async function longChatOnce(browser, origin, turns) {
  const warmEmptyHeapMb = await warmEmptyHeap(browser, origin);
  const { page, problems } = await freshPage(browser, origin);
  try {
    const snapshot = longChatSnapshot(turns);
    const emptyHeapMb = await heapMb(page);
    const emptyRenderer = largestRendererMb();
    // The idle baseline: the same page, empty, for as long (Chromium's own housekeeping).
    const emptyIdle = await withCpu(() => page.waitForTimeout(10_000));
    await stage(page, snapshot);
    const opened = await withCpu(() => page.evaluate(() => window.__step(window.__takeStaged())));
    const openRenderer = largestRendererMb();
    const open = opened.result;
    const scroll = await withCpu(() =>
      page.evaluate(async () => {
        const log = document.querySelector('.transcript');
        const frames = [];
        // 60 frames of scrolling upwards by 600 px, each timed from one frame to the next.
        let last = await new Promise((done) => requestAnimationFrame(done));
        for (let i = 0; i < 60; i++) {
          log.scrollTop = Math.max(0, log.scrollTop - 600);
          const now = await new Promise((done) => requestAnimationFrame(done));
          const t0 = performance.now();
          document.documentElement.getBoundingClientRect();
          frames.push(now - last + (performance.now() - t0));
          last = now;
        }
        return { frames, nodes: document.getElementsByTagName('*').length };
      }),
    );
    const idle = await page.evaluate(async () => {
      const frames = [];
      let last = await new Promise((done) => requestAnimationFrame(done));
      for (let i = 0; i < 60; i++) {
        const now = await new Promise((done) => requestAnimationFrame(done));
        const t0 = performance.now();
        document.documentElement.getBoundingClientRect();
        frames.push(now - last + (performance.now() - t0));
        last = now;
      }
      return frames;
    });
    // Memory: every turn built on the way to the very top (far ones evicted again meanwhile), then
    // back to the bottom the same way.
    const walked = await page.evaluate(async () => {
      const log = document.querySelector('.transcript');
      let mostBuilt = 0;
      const step = async (by) => {
        log.scrollTop = Math.max(0, log.scrollTop + by);
        await new Promise((done) => requestAnimationFrame(done));
        mostBuilt = Math.max(mostBuilt, document.querySelectorAll('section.turn:not(.turn-deferred)').length);
      };
      for (
        let i = 0;
        i < 5000 && !(log.scrollTop === 0 && document.querySelector('[data-entry-id="u1"]'));
        i++
      ) {
        await step(-3000);
      }
      for (let i = 0; i < 5000 && log.scrollTop < log.scrollHeight - log.clientHeight - 1; i++) {
        await step(3000);
      }
      return { mostBuilt };
    });
    const builtHeapMb = await heapMb(page);
    const builtRssMb = rendererRssMb();
    const builtRenderer = largestRendererMb();
    // Idle: the static chat on screen for 10 s; the renderer's main thread should do nothing.
    const idleWait = await withCpu(() => page.waitForTimeout(10_000));
    // Then settled: the first idle seconds after the walk still collect and sweep what eviction
    // freed (Chromium's garbage collector, on the main thread) and give memory back to the system.
    const settledRenderer = largestRendererMb();
    const settledWait = await withCpu(() => page.waitForTimeout(10_000));
    // A turn running but silent (the agent thinking): the chat with a running turn at its end, on screen.
    await page.evaluate((running) => window.__step(running), withRunningTurn(snapshot));
    await page.waitForTimeout(2_000); // the replaced DOM collected first
    const runningWait = await withCpu(() => page.waitForTimeout(10_000));
    // Switching away: an empty chat replaces it; what the long chat held should be released.
    await page.evaluate((empty) => window.__step(empty), longChatSnapshot(0));
    const switchedHeapMb = await heapMb(page);
    const result = {
      emptyHeapMb,
      warmEmptyHeapMb,
      builtHeapMb,
      builtRssMb,
      mostBuilt: walked.mostBuilt,
      switchedHeapMb,
      idleCpuPercent: idleWait.cpuMs === undefined ? undefined : idleWait.cpuMs / 100,
      settledIdleCpuPercent: settledWait.cpuMs === undefined ? undefined : settledWait.cpuMs / 100,
      runningIdleCpuPercent: runningWait.cpuMs === undefined ? undefined : runningWait.cpuMs / 100,
      emptyRenderer,
      openRenderer,
      builtRenderer,
      settledRenderer,
      emptyIdleCpuPercent: emptyIdle.cpuMs === undefined ? undefined : emptyIdle.cpuMs / 100,
      openMs: open.handle + open.render + open.layout,
      openCpuMs: opened.cpuMs,
      frames: scroll.result.frames,
      idleFrames: idle,
      scrollCpuMs: scroll.cpuMs,
      nodes: scroll.result.nodes,
      entries: snapshot.view.chat.thread.entries.length,
    };
    if (problems.length > 0) {
      throw new Error(`page problems: ${problems.join(' | ')}`);
    }
    return result;
  } finally {
    await page.close();
  }
}

/**
 * Every webview figure, `runs` times each. `sizes` (bytes) give the growth curve; `mainSize` is
 * the workload of the headline figures.
 */
export async function measureWebview({ runs, sizes, mainSize, longTurns }) {
  const { server, origin } = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
  try {
    const texts = new Map(sizes.map((size) => [size, mixedMarkdown(size)]));
    const curve = new Map(sizes.map((size) => [size, []]));
    const naive = [];
    const long = [];
    const streamHeap = [];
    const readingAbove = [];
    const bare = [];
    const terminal = [];
    const tail = [];
    const pacedTail = [];
    const shortTurns = [];
    const history = [];
    const longTurn = [];
    // BENCH_ONLY=long: the long chat's figures alone (open, scroll, memory, idle), without the streams;
    // BENCH_ONLY=stream: the streams' alone (no naive re-render, no long chat, no short turns).
    // BENCH_ONLY=turns: the short turns' alone.
    const turnsOnly = process.env.BENCH_ONLY === 'turns';
    const longOnly = process.env.BENCH_ONLY === 'long' || turnsOnly;
    const streamOnly = process.env.BENCH_ONLY === 'stream';
    for (let run = 0; run < runs; run++) {
      process.stderr.write(`webview: run ${run + 1} of ${runs}…\n`);
      for (const size of longOnly ? [] : sizes) {
        curve.get(size).push(await streamOnce(browser, origin, texts.get(size)));
      }
      if (!longOnly) {
        const text = texts.get(mainSize);
        streamHeap.push(await streamHeapOnce(browser, origin, text));
        readingAbove.push(await readingAboveOnce(browser, origin, text));
        bare.push({
          chunked: await bareStreamOnce(browser, origin, text, { chunked: true }),
          flat: await bareStreamOnce(browser, origin, text, { chunked: false }),
        });
        terminal.push(await terminalStreamOnce(browser, origin));
        tail.push(await tailStreamOnce(browser, origin));
        pacedTail.push(await pacedTailOnce(browser, origin));
      }
      if (!longOnly && !streamOnly) {
        naive.push(await naiveOnce(browser, origin, texts.get(mainSize)));
      }
      if (!streamOnly && !turnsOnly) {
        long.push(await longChatOnce(browser, origin, longTurns));
        history.push(await historyOpenOnce(browser, origin, longTurns));
        longTurn.push(await longTurnOpenOnce(browser, origin));
      }
      if (!streamOnly) {
        shortTurns.push(await shortTurnsOnce(browser, origin));
      }
    }
    return {
      curve,
      naive,
      long,
      streamHeap,
      readingAbove,
      bare,
      terminal,
      tail,
      pacedTail,
      shortTurns,
      history,
      longTurn,
    };
  } finally {
    await browser.close();
    server.close();
  }
}

/**
 * `node bench/webview.mjs` (after `node esbuild.mjs --production`): the webview figures alone,
 * each beside its baseline from the same run, medians of BENCH_RUNS runs (default 3). Wall-clock
 * figures swing with the machine's load; the renderer main-thread CPU figures do not.
 */
async function main() {
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const size = 2_000_000;
  const turns = 2000;
  const web = await measureWebview({ runs, sizes: [size], mainSize: size, longTurns: turns });
  const p95 = (values) => [...values].sort((a, b) => a - b)[Math.floor(0.95 * values.length)];
  const ms = (value) => (value === undefined || Number.isNaN(value) ? 'n/a' : `${value.toFixed(1)} ms`);
  const stream = web.curve.get(size);
  const long = web.long;
  if (process.env.BENCH_ONLY === 'turns') {
    for (const [figure, value, baseline, goal] of shortTurnRows(web.shortTurns)) {
      console.log(`${figure}  ${value}  [${baseline}; goal ${goal}]`);
    }
    return;
  }
  const longRows = [
    ...longChatMemoryRows(long, turns),
    ...streamMemoryRows(web.streamHeap),
    ...(web.shortTurns.length > 0 ? shortTurnRows(web.shortTurns) : []),
  ].map(([figure, value, baseline, goal, , note]) => [
    figure,
    value,
    `${baseline}; goal ${goal}${note ? `; ${note}` : ''}`,
  ]);
  // BENCH_ONLY=long runs no stream: there are no stream rows to compute.
  const streamRows = (
    stream.length > 0
      ? [
          ...streamingRows(stream, { chars: size, chunks: size / CHUNK_CHARS, bare: web.bare }),
          readingAboveRow(web.readingAbove, { chars: size }),
          ...terminalStreamRows(web.terminal),
          ...tailStreamRows(web.tail),
          ...pacedTailRows(web.pacedTail),
        ]
      : []
  ).map(([figure, value, baseline, goal, , note]) => [
    figure,
    value,
    `${baseline}; goal ${goal}${note ? `; ${note}` : ''}`,
  ]);
  const allRows = [
    ...longRows,
    ...streamRows,
    [
      `open ${turns.toLocaleString('en-US')} turns, first paint`,
      `${ms(median(long.map((r) => r.openMs)))}; main-thread CPU ${ms(median(long.map((r) => r.openCpuMs)))}`,
      'goal ≤ 150 ms',
    ],
    ...[...historyOpenRows(web.history, long), ...longTurnOpenRows(web.longTurn)].map(
      ([figure, value, baseline, goal]) => [figure, value, `${baseline}; goal ${goal}`],
    ),
    [
      'scrolling it, frame p95 (60 frames of 600 px)',
      `${ms(median(long.map((r) => p95(r.frames))))}; main-thread CPU ${ms(median(long.map((r) => r.scrollCpuMs)) / 60)} a frame`,
      `idle frames on the same page: p95 ${ms(median(long.map((r) => p95(r.idleFrames))))}; goal 16.7 ms`,
    ],
  ];
  const streams = (name) =>
    name.startsWith('webview streaming') ||
    name.startsWith('webview terminal') ||
    name.startsWith('slowest') ||
    name.includes('streamed answer');
  const only = process.env.BENCH_ONLY;
  const rows =
    only === 'long'
      ? allRows.filter(([name]) => !streams(name))
      : only === 'stream'
        ? allRows.filter(([name]) => streams(name))
        : allRows;
  const width = Math.max(...rows.map((row) => row[0].length));
  for (const [name, value, baseline] of rows) {
    console.log(`${name.padEnd(width)}  ${value}  [${baseline}]`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
