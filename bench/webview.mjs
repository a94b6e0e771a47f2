// Webview benchmark: the production dist/webview.js in headless Chromium under the production
// CSP (the extension's own page, as the webview tests serve it), fed host messages exactly as the extension posts them. Each figure
// is measured `runs` times on a freshly loaded page; the caller takes medians. Prints nothing.
/* global window, document, requestAnimationFrame, performance, URL */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { tsImport } from 'tsx/esm/api';
import { longChatSnapshot, mixedMarkdown, streamingSnapshot, streamMessages } from './workloads.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf' };
/** Full re-renders timed for the naive figure (evenly spread over the stream), then extrapolated. */
const NAIVE_SAMPLES = 12;

/** Serves the repository and the chat page (the extension's HTML and CSP) on 127.0.0.1. */
async function startServer() {
  const { webviewPage } = await tsImport('../test/webview/support/webviewPage.ts', import.meta.url);
  let origin = '';
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', origin);
    try {
      if (url.pathname === '/favicon.ico') {
        response.writeHead(204).end();
        return;
      }
      if (url.pathname === '/chat.html') {
        const html = webviewPage(origin, 'dark');
        response.writeHead(200, { 'content-type': TYPES['.html'] }).end(html);
        return;
      }
      const path = normalize(join(ROOT, decodeURIComponent(url.pathname)));
      if (!path.startsWith(ROOT + sep)) {
        response.writeHead(403).end();
        return;
      }
      const body = await readFile(path);
      response
        .writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' })
        .end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${server.address().port}`;
  return { server, origin };
}

/**
 * Runs in the page: dispatches one host message and times the frame that renders it. A rAF queued
 * before the message runs first in the next frame, the view's render next, and a rAF queued after
 * it closes the measurement; then layout is forced and timed (the browser would do it in the same
 * frame anyway).
 */
const STEP = `(data) => new Promise((done) => {
  let before = 0;
  requestAnimationFrame(() => { before = performance.now(); });
  const t0 = performance.now();
  window.dispatchEvent(new MessageEvent('message', { data }));
  const handle = performance.now() - t0;
  requestAnimationFrame(() => {
    const rendered = performance.now();
    document.documentElement.getBoundingClientRect();
    done({ handle, render: rendered - before, layout: performance.now() - rendered });
  });
})`;

async function freshPage(browser, origin) {
  const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  await page.goto(`${origin}/chat.html`);
  await page.waitForFunction(() => window.__posted.some((message) => message.type === 'ready'));
  await page.evaluate(`window.__step = ${STEP}`);
  return { page, problems };
}

/** Streams `text` as the host would and times every frame; then renders the final text once. */
async function streamOnce(browser, origin, text) {
  const { page, problems } = await freshPage(browser, origin);
  try {
    const result = await page.evaluate(
      async ({ start, messages, final }) => {
        await window.__step(start);
        const frames = [];
        for (const message of messages) {
          frames.push(await window.__step(message));
        }
        const shown = document.querySelector('[data-entry-id="a1"] .markdown')?.textContent?.length ?? 0;
        const once = await window.__step(final);
        return { frames, once, shown, nodes: document.getElementsByTagName('*').length };
      },
      { start: streamingSnapshot(), messages: streamMessages(text), final: streamingSnapshot(text) },
    );
    if (problems.length > 0) {
      throw new Error(`page problems: ${problems.join(' | ')}`);
    }
    const script = (frame) => frame.handle + frame.render;
    return {
      chars: text.length,
      messages: result.frames.length,
      streamScriptMs: result.frames.reduce((sum, frame) => sum + script(frame), 0),
      streamLayoutMs: result.frames.reduce((sum, frame) => sum + frame.layout, 0),
      frameMs: result.frames.map((frame) => script(frame) + frame.layout),
      onceScriptMs: script(result.once),
      onceLayoutMs: result.once.layout,
      shownChars: result.shown,
      nodes: result.nodes,
    };
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
async function naiveOnce(browser, origin, text) {
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
          out.push(frame.handle + frame.render);
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

/** Opens a long chat from its snapshot (first paint), then scrolls it to the top frame by frame. */
async function longChatOnce(browser, origin, turns) {
  const { page, problems } = await freshPage(browser, origin);
  try {
    const snapshot = longChatSnapshot(turns);
    const result = await page.evaluate(async (snapshot) => {
      const open = await window.__step(snapshot);
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
      return {
        openMs: open.handle + open.render + open.layout,
        frames,
        nodes: document.getElementsByTagName('*').length,
        entries: snapshot.view.chat.thread.entries.length,
      };
    }, snapshot);
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
    for (let run = 0; run < runs; run++) {
      process.stderr.write(`webview: run ${run + 1} of ${runs}…\n`);
      for (const size of sizes) {
        curve.get(size).push(await streamOnce(browser, origin, texts.get(size)));
      }
      naive.push(await naiveOnce(browser, origin, texts.get(mainSize)));
      long.push(await longChatOnce(browser, origin, longTurns));
    }
    return { curve, naive, long };
  } finally {
    await browser.close();
    server.close();
  }
}
