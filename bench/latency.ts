// Chunk → DOM latency in the real VS Code (run by bench/run.mjs with tsx; expects a build in dist/ —
// `npm run bench` makes the production one). code-server + headless Chromium as the e2e tests run them;
// the demo agent's `timed` scenario writes chunks that each carry their write time (Date.now()); a probe
// in the chat webview records, per chunk, when a host message carrying it arrives (`message` event),
// when its text is inserted into the DOM (MutationObserver) and the end of the frame that paints it
// (painted: bench/whenPainted.ts). Agent, code-server and Chromium share this machine's clock. Prints JSON on its last line.
//
//   BENCH_LATENCY_CHUNKS (default 1000)  BENCH_LATENCY_RATES (default "100,burst")
import { loadavg } from 'node:os';
import type { Frame } from 'playwright-core';
import { openChat, sendPrompt, waitForTurnStatus } from '../test/e2e/support/chat';
import { startWorkbench } from '../test/e2e/support/workbench';
import { WHEN_PAINTED } from './whenPainted';

const CHUNKS = Number(process.env.BENCH_LATENCY_CHUNKS ?? 1000);
const RATES = (process.env.BENCH_LATENCY_RATES ?? '100,burst').split(',').map((rate) => rate.trim());

/** Per chunk id: the ms since the epoch at each stage. */
interface ProbeRecord {
  readonly sent: Record<number, number>;
  readonly received: Record<number, number>;
  readonly inDom: Record<number, number>;
  readonly painted: Record<number, number>;
}

/**
 * Installed in the webview's frame. A string, not a function: tsx would add helpers to a function's
 * source that do not exist in the page. `message` listeners run in the order they were added, so this
 * one runs after the app's handler, which only queues its render for the next animation frame.
 */
const PROBE = `${WHEN_PAINTED}(() => {
  const pattern = /c(\\d+)t(\\d+)/g;
  const probe = { sent: {}, received: {}, inDom: {}, painted: {}, seen: 0 };
  window.__latencyProbe = probe;
  const scan = (text, stage, at, fresh) => {
    pattern.lastIndex = 0;
    for (let match; (match = pattern.exec(text)); ) {
      const id = Number(match[1]);
      if (stage[id] === undefined) {
        stage[id] = at;
        probe.sent[id] = Number(match[2]);
        fresh?.push(id);
      }
    }
  };
  window.addEventListener('message', (event) => {
    scan(JSON.stringify(event.data), probe.received, Date.now());
  });
  new MutationObserver((records) => {
    const at = Date.now();
    const fresh = [];
    for (const record of records) {
      if (record.type === 'characterData') {
        scan(record.target.data ?? '', probe.inDom, at, fresh);
      } else {
        for (const node of record.addedNodes) {
          scan(node.textContent ?? '', probe.inDom, at, fresh);
        }
      }
    }
    probe.seen += fresh.length;
    if (fresh.length > 0) {
      window.__whenPainted(() => {
        const painted = Date.now();
        for (const id of fresh) {
          probe.painted[id] = painted;
        }
      });
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

const RESET = `(() => {
  const probe = window.__latencyProbe;
  for (const stage of [probe.sent, probe.received, probe.inDom, probe.painted]) {
    for (const id of Object.keys(stage)) delete stage[id];
  }
  probe.seen = 0;
})()`;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

interface Spread {
  readonly n: number;
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
}

function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

/** One turn of `timed`: the latency of each stage, over every chunk. */
async function measure(frame: Frame, rate: string): Promise<Record<string, unknown>> {
  await frame.evaluate(RESET);
  const prompt = rate === 'burst' ? `timed ${CHUNKS} burst` : `timed ${CHUNKS} rate ${rate}`;
  const streamMs = rate === 'burst' ? 5_000 : (CHUNKS / Number(rate)) * 1000;
  const turnId = await sendPrompt(frame, prompt);
  try {
    await frame.waitForFunction(
      (n) => (window as unknown as { __latencyProbe: { seen: number } }).__latencyProbe.seen >= n,
      CHUNKS,
      {
        timeout: streamMs + 60_000,
        polling: 250,
      },
    );
  } catch (error) {
    const seen = await frame.evaluate('window.__latencyProbe.seen');
    throw new Error(`"${prompt}": ${String(seen)} of ${CHUNKS} chunks reached the DOM`, { cause: error });
  }
  await waitForTurnStatus(frame, turnId, 'completed');
  await new Promise((done) => setTimeout(done, 200)); // the last animation frame
  const probe = (await frame.evaluate('window.__latencyProbe')) as ProbeRecord;
  const stage = (from: Record<number, number>, to: Record<number, number>): number[] =>
    Object.keys(to).flatMap((key) => {
      const id = Number(key);
      const start = from[id];
      const end = to[id];
      return start !== undefined && end !== undefined ? [end - start] : [];
    });
  return {
    rate,
    prompt,
    chunks: CHUNKS,
    chunkToDom: spread(stage(probe.sent, probe.inDom)),
    chunkToPaint: spread(stage(probe.sent, probe.painted)),
    chunkToWebview: spread(stage(probe.sent, probe.received)),
    webviewToDom: spread(stage(probe.received, probe.inDom)),
  };
}

async function main(): Promise<void> {
  const workbench = await startWorkbench();
  try {
    const frame = await openChat(workbench.page);
    await frame.evaluate(PROBE);
    // Starts the agent and warms both ends; not counted.
    await measureWarmUp(frame);
    const runs = [];
    // The machine is shared: its load average goes with the figures.
    const loadBefore = loadavg()[0];
    for (const rate of RATES) {
      process.stderr.write(`latency: ${CHUNKS} chunks at ${rate === 'burst' ? 'burst' : `${rate}/s`}…\n`);
      runs.push(await measure(frame, rate));
    }
    const loadAverage = [loadBefore, loadavg()[0]];
    process.stdout.write(JSON.stringify({ chunks: CHUNKS, runs, loadAverage }) + '\n');
  } finally {
    await workbench.stop();
  }
}

async function measureWarmUp(frame: Frame): Promise<void> {
  const turnId = await sendPrompt(frame, 'timed 100 rate 200');
  await waitForTurnStatus(frame, turnId, 'completed', { timeout: 60_000 });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
