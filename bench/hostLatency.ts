// The host's share of the chunk → DOM latency (run by bench/run.mjs with tsx, beside bench/latency.ts):
// the demo agent's `timed` scenario over real stdio, read by
//  - a bare SDK client, stamping each chunk when its `session/update` reaches the handler (stdio + SDK:
//    the floor any client pays), and
//  - the extension's host pipeline (SDK → normaliser → thread → journal → 17 ms batcher → view message,
//    serialised as postMessage would), stamping each chunk when the view message carrying it is posted.
// Same clock as the agent (Date.now()). Prints JSON on its last line.
//
//   BENCH_LATENCY_CHUNKS (default 1000)  BENCH_LATENCY_RATES (default "100,burst")
import type { HostMessage } from '../src/protocol';
import { bareSession, benchChat } from './benchClients';

const CHUNKS = Number(process.env.BENCH_LATENCY_CHUNKS ?? 1000);
const RATES = (process.env.BENCH_LATENCY_RATES ?? '100,burst').split(',').map((rate) => rate.trim());
const STAMP = /c(\d+)t(\d+)/g;

/** ms from each chunk's write to `at`, for every chunk stamp in `text` not seen before. */
function collect(text: string, at: number, seen: Set<number>, into: number[]): void {
  for (const match of text.matchAll(STAMP)) {
    const id = Number(match[1]);
    if (!seen.has(id)) {
      seen.add(id);
      into.push(at - Number(match[2]));
    }
  }
}

function promptFor(rate: string): string {
  return rate === 'burst' ? `timed ${CHUNKS} burst` : `timed ${CHUNKS} rate ${rate}`;
}

/** agent → a bare SDK client's notification handler. */
async function bareSdk(rate: string): Promise<number[]> {
  const seen = new Set<number>();
  const latencies: number[] = [];
  const session = await bareSession('bench-latency', (update) => {
    if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') {
      collect(update.content.text, Date.now(), seen, latencies);
    }
  });
  try {
    await session.prompt(promptFor(rate));
    while (latencies.length < CHUNKS) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    return latencies;
  } finally {
    session.close();
  }
}

/** agent → the host pipeline's view message (what the extension hands to webview.postMessage). */
async function ours(rate: string): Promise<number[]> {
  const { controller, dispose } = benchChat();
  const seen = new Set<number>();
  const latencies: number[] = [];
  let ended: (() => void) | undefined;
  controller.attachView({
    post(message: HostMessage): void {
      const json = JSON.stringify(message); // what postMessage's structured clone costs, about
      collect(json, Date.now(), seen, latencies);
      if (message.type === 'thread_events' && message.events.some((event) => event.type === 'turn_ended')) {
        ended?.();
      }
    },
  });
  try {
    await controller.handleMessage({ type: 'ready' });
    await controller.connectActive();
    const done = new Promise<void>((resolve) => {
      ended = resolve;
    });
    await controller.handleMessage({ type: 'send', text: promptFor(rate) });
    await done;
    return latencies;
  } finally {
    await dispose();
  }
}

function spread(values: readonly number[]): { n: number; p50: number; p95: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? NaN };
}

async function main(): Promise<void> {
  const runs = [];
  for (const rate of RATES) {
    const bare = await bareSdk(rate);
    const pipeline = await ours(rate);
    runs.push({ rate, chunkToSdk: spread(bare), chunkToViewMessage: spread(pipeline) });
  }
  process.stdout.write(JSON.stringify({ chunks: CHUNKS, runs }) + '\n');
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
