// Streaming benchmark for the chat webview (`npm run bench`): loads the built dist/webview.js in
// headless Chromium under the production CSP, streams 10,000 chunks (~50 characters of markdown
// with code fences) as `thread_events` batches of 50, one batch per frame like the host's
// batcher, and prints what it cost. It prints figures; it asserts nothing.
/* global window, document, requestAnimationFrame, MessageEvent, performance, URL, structuredClone */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const CHUNKS = 10_000;
const CHUNK_CHARS = 50;
const BATCH = 50;
const CHAT_ID = 'bench-chat';
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf' };

/** Serves the repository and the test fixture page (same CSP as the extension) on 127.0.0.1. */
async function startServer() {
  let origin = '';
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', origin);
    try {
      if (url.pathname === '/favicon.ico') {
        response.writeHead(204).end();
        return;
      }
      if (url.pathname === '/chat.html') {
        const html = (await readFile(join(ROOT, 'test/webview/fixture/index.html'), 'utf8'))
          .replaceAll('{{nonce}}', randomBytes(16).toString('base64url'))
          .replaceAll('{{cspSource}}', origin)
          .replaceAll('{{theme}}', 'dark');
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

/** ~500 KB of agent-like markdown: prose, lists, headings and fenced code, cut into chunks. */
function makeChunks() {
  const parts = [];
  let length = 0;
  for (let i = 0; length < CHUNKS * CHUNK_CHARS; i++) {
    const part =
      i % 6 === 3
        ? '```ts\n' +
          Array.from(
            { length: 12 },
            (_, j) =>
              `export function step${i}_${j}(input: string): number {\n  return input.length * ${j};\n}`,
          ).join('\n') +
          '\n```'
        : i % 6 === 5
          ? `### Part ${i}\n\n- check \`item${i}\` first\n- then look at [the docs](https://example.com/${i})\n- finally **verify** it`
          : `Paragraph ${i}: the agent explains what it changed and why, with *emphasis*, \`code\` and a link to src/file${i}.ts:${i}. `.repeat(
              3,
            );
    parts.push(part);
    length += part.length + 2;
  }
  const text = parts.join('\n\n');
  const size = Math.ceil(text.length / CHUNKS);
  return Array.from({ length: CHUNKS }, (_, i) => text.slice(i * size, (i + 1) * size));
}

const LONG_TURNS = 200;

/**
 * A chat of LONG_TURNS finished turns (question, ~1.5 KB answer with code, an edit with a diff, a
 * checkpoint and a card of three changed files), plus a running one.
 */
function longChatSnapshot() {
  const entries = [];
  const turns = [];
  const code = Array.from({ length: 20 }, (_, i) => `  const value${i} = compute(${i});`).join('\n');
  for (let t = 1; t <= LONG_TURNS; t++) {
    const turnId = `t${t}`;
    const file = (name, kind) => ({
      path: `/w/src/${name}`,
      relativePath: `src/${name}`,
      kind,
      added: 4,
      removed: 1,
      decision: 'pending',
    });
    turns.push({
      id: turnId,
      status: 'completed',
      stopReason: 'end_turn',
      startedAt: t,
      endedAt: t + 1,
      checkpointId: `cp${t}`,
      changes: {
        files: [
          file(`step${t}.ts`, 'modified'),
          file(`step${t}.test.ts`, 'created'),
          file(`old${t}.ts`, 'deleted'),
        ],
        live: false,
        coverage: 'full',
      },
    });
    entries.push({
      kind: 'user',
      id: `u${t}`,
      turnId,
      text: `Question ${t}: why does step ${t} fail?`,
      attachments: [],
    });
    entries.push({
      kind: 'agent',
      id: `a${t}`,
      turnId,
      text: `## Step ${t}\n\nThe failure comes from **step ${t}**: see \`src/step${t}.ts\`.\n\n\`\`\`ts\nfunction step${t}() {\n${code}\n}\n\`\`\`\n\n- first cause\n- second cause\n\nFixed it.`,
      attachments: [],
    });
    entries.push({
      kind: 'tool_call',
      id: `c${t}`,
      turnId,
      toolCallId: `call${t}`,
      title: `Edit src/step${t}.ts`,
      toolKind: 'edit',
      status: 'completed',
      content: [
        {
          type: 'diff',
          path: `/w/src/step${t}.ts`,
          oldText: code,
          newText: code.replace('value3', 'renamed3'),
        },
      ],
      locations: [{ path: `/w/src/step${t}.ts`, line: 4 }],
    });
  }
  turns.push({ id: 'live', status: 'running', startedAt: 0 });
  entries.push({ kind: 'agent', id: 'a1', turnId: 'live', text: '', attachments: [] });
  return {
    type: 'snapshot',
    view: {
      agents: [{ id: 'demo', label: 'Demo agent (offline)' }],
      selectedAgentId: 'demo',
      status: { state: 'ready' },
      chat: {
        chatId: CHAT_ID,
        thread: { entries, turns, state: { configOptions: [], commands: [], plan: [] } },
      },
    },
  };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const ms = (value) => `${value.toFixed(2)} ms`;

async function main() {
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
    const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
    const problems = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    await page.goto(`${origin}/chat.html`);
    await page.waitForFunction(() => window.__posted.some((message) => message.type === 'ready'));

    const snapshot = {
      type: 'snapshot',
      view: {
        agents: [{ id: 'demo', label: 'Demo agent (offline)' }],
        selectedAgentId: 'demo',
        status: { state: 'ready' },
        chat: {
          chatId: CHAT_ID,
          thread: {
            entries: [
              { kind: 'user', id: 'u1', turnId: 't1', text: 'Explain everything.', attachments: [] },
              { kind: 'agent', id: 'a1', turnId: 't1', text: '', attachments: [] },
            ],
            turns: [{ id: 't1', status: 'running', startedAt: 0 }],
            state: { configOptions: [], commands: [], plan: [] },
          },
        },
      },
    };
    const chunks = makeChunks();
    const batches = [];
    for (let at = 0; at < chunks.length; at += BATCH) {
      const events = chunks
        .slice(at, at + BATCH)
        .map((text) => ({ type: 'text_appended', entryId: 'a1', text }));
      batches.push({ type: 'thread_events', chatId: CHAT_ID, events });
    }

    const result = await page.evaluate(
      async ({ snapshot, batches, longChat, tailBatches }) => {
        // One step: a rAF queued before the message runs first in the next frame, the view's
        // render runs next, and a rAF queued after it closes the measurement. The message is
        // dispatched synchronously so its handling can be timed too; layout is then forced and
        // timed (the browser would do that work a moment later in the same frame anyway).
        const step = (data) =>
          new Promise((done) => {
            let before = 0;
            requestAnimationFrame(() => {
              before = performance.now();
            });
            const t0 = performance.now();
            window.dispatchEvent(new MessageEvent('message', { data }));
            const handle = performance.now() - t0;
            requestAnimationFrame((start) => {
              const rendered = performance.now();
              document.documentElement.getBoundingClientRect();
              done({ handle, render: rendered - before, layout: performance.now() - rendered, start });
            });
          });
        await step(snapshot);
        const perBatch = [];
        const started = performance.now();
        let previous;
        for (const batch of batches) {
          const result = await step(batch);
          perBatch.push({ ...result, interval: previous === undefined ? 0 : result.start - previous });
          previous = result.start;
        }
        perBatch.shift();
        const total = performance.now() - started;
        const nodes = document.getElementsByTagName('*').length;

        // Cold render of the same reply from a snapshot (a view reopened on a long chat).
        const full = batches.flatMap((batch) => batch.events.map((event) => event.text)).join('');
        const reopened = structuredClone(snapshot);
        reopened.view.chat.thread.entries[1].text = full;
        const cold = await step(reopened);

        // A long chat: its snapshot, then a new reply streamed at its end.
        const long = await step(longChat);
        const tail = [];
        for (const batch of tailBatches) {
          const result = await step(batch);
          tail.push(result.handle + result.render);
        }
        // "Restore checkpoint" of the first message: every turn of the long chat gets marked.
        const first = longChat.view.chat.thread.turns[0];
        const restore = await step({
          type: 'thread_events',
          chatId: longChat.view.chat.chatId,
          events: [{ type: 'turn_updated', turn: { ...first, restoredAt: Date.now() } }],
        });
        return {
          perBatch,
          total,
          cold: cold.handle + cold.render + cold.layout,
          chars: full.length,
          nodes,
          long: long.handle + long.render + long.layout,
          longNodes: document.getElementsByTagName('*').length,
          tail,
          restore: restore.handle + restore.render + restore.layout,
          marked: document.querySelectorAll('.turn.restored-away').length,
        };
      },
      { snapshot, batches, longChat: longChatSnapshot(), tailBatches: batches.slice(0, 20) },
    );

    const session = await page.context().newCDPSession(page);
    await session.send('HeapProfiler.collectGarbage');
    const heap = await session.send('Runtime.getHeapUsage');

    const costs = result.perBatch.map((b) => b.handle + b.render).sort((a, b) => a - b);
    const renders = result.perBatch.map((b) => b.render).sort((a, b) => a - b);
    const handles = result.perBatch.map((b) => b.handle).sort((a, b) => a - b);
    const intervals = result.perBatch.map((b) => b.interval).sort((a, b) => a - b);
    const layouts = result.perBatch.map((b) => b.layout).sort((a, b) => a - b);
    const busy = costs.reduce((sum, value) => sum + value, 0);
    console.log(
      `webview streaming: ${CHUNKS} chunks (${result.chars.toLocaleString('en-US')} chars) in ${batches.length} batches of ${BATCH}`,
    );
    console.log(`  total wall time        ${ms(result.total)} (one batch per frame)`);
    console.log(`  total script work      ${ms(busy)} (handling + rendering, without the browser's layout)`);
    console.log(
      `  per batch (handle+render) p50 ${ms(percentile(costs, 50))}  p95 ${ms(percentile(costs, 95))}  max ${ms(costs.at(-1))}`,
    );
    console.log(
      `    parse+apply          p50 ${ms(percentile(handles, 50))}  p95 ${ms(percentile(handles, 95))}`,
    );
    console.log(
      `    render               p50 ${ms(percentile(renders, 50))}  p95 ${ms(percentile(renders, 95))}`,
    );
    console.log(
      `    style+layout         p50 ${ms(percentile(layouts, 50))}  p95 ${ms(percentile(layouts, 95))}`,
    );
    console.log(
      `  frame interval         p50 ${ms(percentile(intervals, 50))}  p95 ${ms(percentile(intervals, 95))}  (16.7 ms = no dropped frame)`,
    );
    console.log(`  cold snapshot render   ${ms(result.cold)} (the whole reply at once)`);
    console.log(`  final DOM nodes        ${result.nodes.toLocaleString('en-US')}`);
    const tail = [...result.tail].sort((a, b) => a - b);
    console.log(
      `long chat: ${LONG_TURNS} finished turns (user, markdown answer with code, edit with diff, 3 changed files)`,
    );
    console.log(
      `  snapshot render        ${ms(result.long)} (${result.longNodes.toLocaleString('en-US')} DOM nodes)`,
    );
    console.log(
      `  streaming at its end   p50 ${ms(percentile(tail, 50))}  p95 ${ms(percentile(tail, 95))} per batch`,
    );
    console.log(
      `  restore to the first   ${ms(result.restore)} (${result.marked} turns marked, with style+layout)`,
    );
    console.log(`  JS heap used           ${(heap.usedSize / 1024 / 1024).toFixed(1)} MiB (after GC)`);
    if (problems.length > 0) {
      console.log(`  page problems: ${problems.join(' | ')}`);
    }
  } finally {
    await browser.close();
    server.close();
  }
}

await main();
