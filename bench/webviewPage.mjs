// The page the webview benchmark drives: the production dist/webview.js served with the extension's HTML and
// CSP on 127.0.0.1, one frame-timing step, and what the renderer process uses (CPU, RSS, JS heap).
/* global window, document, URL */
import { readdirSync, readFileSync } from 'node:fs';
import { descendants, threadCpuMs } from './processCpu.mjs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf' };

/**
 * BENCH_MARKDOWN_WORKER=0: the page without the markdown worker, planning every stream on its main thread
 * (as when the worker cannot start; the design before it), to set beside the default.
 */
export const MARKDOWN_WORKER = process.env.BENCH_MARKDOWN_WORKER !== '0';

/**
 * CPU time used so far by the main thread of each Chromium renderer (pid → ms), and by its dedicated
 * workers (the markdown worker; `${pid}:workers` → ms). Wall-clock frame times swing with the machine's
 * load; the CPU the page's main thread actually used does not, so it is what compares two builds fairly on
 * a shared machine.
 */
function rendererMainThreadCpu() {
  const cpu = new Map();
  for (const pid of descendants()) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) {
        continue;
      }
      cpu.set(pid, threadCpuMs(`/proc/${pid}/task/${pid}`));
      let workers = 0;
      for (const task of readdirSync(`/proc/${pid}/task`)) {
        if (readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').startsWith('DedicatedWorker')) {
          workers += threadCpuMs(`/proc/${pid}/task/${task}`);
        }
      }
      cpu.set(`${pid}:workers`, workers);
    } catch {
      // Not a renderer any more.
    }
  }
  return cpu;
}

/** The renderers' resident memory (MB, VmRSS from /proc), if known: the page's process as the OS counts it. */
export function rendererRssMb() {
  let kb = 0;
  let found = false;
  for (const pid of descendants()) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) {
        continue;
      }
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      kb += Number(rss?.[1] ?? 0);
      found = true;
    } catch {
      // Not a renderer any more.
    }
  }
  return found ? kb / 1024 : undefined;
}

/**
 * The renderer with the most private memory (the page under test; the others are Chromium's spare
 * renderer and closing pages): its RSS and its private part (RssAnon), MB. RSS also counts the
 * pages of the Chromium binary each renderer maps (≈ 110 MB, shared by them all), so the sum over
 * renderers counts those several times.
 */
export function largestRendererMb() {
  let largest;
  for (const pid of descendants()) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) {
        continue;
      }
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
      const found = { rssMb: kb('VmRSS') / 1024, privateMb: kb('RssAnon') / 1024 };
      if (!largest || found.privateMb > largest.privateMb) {
        largest = found;
      }
    } catch {
      // Not a renderer any more.
    }
  }
  return largest;
}

/** The elements in the document of `target` (a Playwright page or frame). */
export function elementCount(target) {
  return target.evaluate(() => document.getElementsByTagName('*').length);
}

/** The page's JS heap in use after a full garbage collection (MB), through the DevTools protocol. */
export async function heapMb(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    return usedSize / (1024 * 1024);
  } finally {
    await cdp.detach();
  }
}

/**
 * Puts `value` in the page for a timed step to take (`window.__takeStaged()`). Playwright deserialises an
 * evaluate's argument on the page's main thread before the function runs, in one task no trace event names —
 * for the 2 MB stream's messages ≈ 0.7 s of the CPU a timed stream counted — so a step timed by `withCpu`
 * carries no large argument.
 */
export async function stage(page, value) {
  await page.evaluate((staged) => {
    window.__staged = staged;
  }, value);
}

/**
 * In the page: what `stage` put there, taken (the page holds it no longer than the step that uses it); and
 * `window.__stepStaged(step)`, which takes a staged list and steps each item in turn (`window.__step` unless
 * told), returning what each step returned.
 */
const TAKE_STAGED = `window.__takeStaged = () => {
  const staged = window.__staged;
  window.__staged = undefined;
  return staged;
};
window.__stepStaged = async (step = window.__step) => {
  const frames = [];
  for (const item of window.__takeStaged()) {
    frames.push(await step(item));
  }
  return frames;
}`;

/**
 * Runs `work` and returns its result with the renderers' main-thread CPU it took (ms), if known, and
 * their workers' (a worker that ended meanwhile is not counted).
 */
export async function withCpu(work) {
  const before = rendererMainThreadCpu();
  const result = await work();
  const after = rendererMainThreadCpu();
  let cpuMs = 0;
  let workerCpuMs = 0;
  for (const [key, ms] of after) {
    const used = ms - (before.get(key) ?? ms);
    if (String(key).endsWith(':workers')) {
      workerCpuMs += used;
    } else {
      cpuMs += used;
    }
  }
  return {
    result,
    cpuMs: after.size > 0 ? cpuMs : undefined,
    workerCpuMs: after.size > 0 ? workerCpuMs : undefined,
  };
}

/**
 * Opens `snapshot` (a host message) on a fresh page, as the chat view gets it: the open's frame (ms), the
 * page's main-thread CPU for it, the elements it left and the snapshot's entries.
 */
export async function openSnapshotOnce(browser, origin, snapshot) {
  const { page, problems } = await freshPage(browser, origin);
  try {
    await stage(page, snapshot);
    const opened = await withCpu(() => page.evaluate(() => window.__step(window.__takeStaged())));
    const open = opened.result;
    const elements = await elementCount(page);
    if (problems.length > 0) {
      throw new Error(`page problems: ${problems.join(' | ')}`);
    }
    return {
      openMs: open.handle + open.render + open.layout,
      cpuMs: opened.cpuMs,
      elements,
      entries: snapshot.view.chat.thread.entries.length,
    };
  } finally {
    await page.close();
  }
}

/** Serves the repository and the chat page (the extension's HTML and CSP) on 127.0.0.1. */
export async function startServer() {
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
        const html = webviewPage(origin, 'dark', { markdownWorker: MARKDOWN_WORKER });
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
 * Runs in the page: dispatches one host message and times what the page's main thread does for it. A rAF
 * queued before the message runs first in the next frame, the view's render next, and a rAF queued after
 * it closes the measurement; then layout is forced and timed (the browser would do it in the same frame
 * anyway). Markdown planned in the worker meanwhile comes back after that frame: its apply (timed by the
 * page, MARKDOWN_EVENTS.settled) and the layout it causes are added — as if in the same frame, which the
 * pipelined frames of a real stream never exceed.
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
    const frame = { handle, render: rendered - before, layout: performance.now() - rendered, apply: 0 };
    if (!window.__markdown.busy) {
      done(frame);
      return;
    }
    window.addEventListener('acp-markdown-settled', (event) => {
      const applied = performance.now();
      document.documentElement.getBoundingClientRect();
      frame.apply = event.detail.applyMs;
      frame.layout += performance.now() - applied;
      done(frame);
    }, { once: true });
  });
})`;

/** The chat page, ready; `bypassCSP` lets a probe add its own style rules to try a change without a build. */
export async function freshPage(browser, origin, { bypassCSP = false } = {}) {
  const page = await browser.newPage({ viewport: { width: 420, height: 900 }, bypassCSP });
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  await page.goto(`${origin}/chat.html`);
  await page.waitForFunction(() => window.__posted.some((message) => message.type === 'ready'));
  if (MARKDOWN_WORKER) {
    // Streams move to the markdown worker once it runs (the test page's stand-in records its state).
    await page.waitForFunction(() => window.__markdown.worker !== 'starting');
    if ((await page.evaluate(() => window.__markdown.worker)) !== 'ready') {
      throw new Error('the markdown worker did not start');
    }
  }
  await page.evaluate(`window.__step = ${STEP}; ${TAKE_STAGED}`);
  return { page, problems };
}

/** Steps each host message into the page in turn (`window.__step`: each in a frame of its own). */
export async function stepAll(page, messages) {
  await page.evaluate(async (list) => {
    for (const message of list) {
      await window.__step(message);
    }
  }, messages);
}

/**
 * For a one-off probe: the chat page served on 127.0.0.1 and opened in the system Chromium, with a DevTools
 * session on it; `work({ page, cdp })` runs, then the browser and the server are closed.
 */
export async function withProbePage(work) {
  const { server, origin } = await startServer();
  const { launchChromium } = await tsImport('../test/webview/support/chromium.ts', import.meta.url);
  const browser = await launchChromium();
  try {
    const { page } = await freshPage(browser, origin);
    return await work({ page, cdp: await page.context().newCDPSession(page) });
  } finally {
    await browser.close();
    server.close();
  }
}
