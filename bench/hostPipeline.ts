// Host streaming benchmark (run by bench/run.mjs with tsx): the real test agent (dist/demo-agent.js)
// streams N text chunks over real stdio, and two clients receive them:
//  - baseline: a bare SDK client that only counts the `session/update` notifications;
//  - ours: the whole host pipeline — SDK → normalizer → thread → journal → event batcher → view
//    messages, each serialized as postMessage would (JSON) — through a real ChatController.
// Both are timed from the prompt to the end of the turn, alternately, RUNS times. Prints JSON.
import type { HostMessage } from '../src/protocol';
import { bareSession, benchChat } from './benchClients';

const CHUNKS = Number(process.env.BENCH_HOST_CHUNKS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

interface RunFigures {
  /** Wall time from the prompt to the end of the turn. */
  readonly ms: number;
  /** CPU time of this process (the client) meanwhile; the agent runs in its own process. */
  readonly cpuMs: number;
  readonly notifications?: number;
  readonly viewMessages?: number;
  readonly viewBytes?: number;
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** The bare SDK: spawn, initialize, new session, one prompt; the handler only counts. */
async function bareSdk(): Promise<RunFigures> {
  let notifications = 0;
  const session = await bareSession('bench-bare', () => {
    notifications++;
  });
  try {
    const started = performance.now();
    const cpu = process.cpuUsage();
    await session.prompt(`stream ${CHUNKS} burst`);
    // Notifications sent before the response may still be in the handler's queue.
    while (notifications < CHUNKS) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { ms: performance.now() - started, cpuMs: cpuMsSince(cpu), notifications };
  } finally {
    session.close();
  }
}

/** The extension's host pipeline, up to serialized view messages. */
async function ours(): Promise<RunFigures> {
  const { controller, dispose } = benchChat();
  let counting = false;
  let viewMessages = 0;
  let viewBytes = 0;
  let ended: (() => void) | undefined;
  controller.attachView({
    post(message: HostMessage): void {
      // What postMessage does with it: a structured clone, which costs about a JSON round.
      const json = JSON.stringify(message);
      if (!counting) {
        return;
      }
      viewMessages++;
      viewBytes += json.length;
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
    counting = true;
    const started = performance.now();
    const cpu = process.cpuUsage();
    await controller.handleMessage({ type: 'send', text: `stream ${CHUNKS} burst` });
    await done;
    return { ms: performance.now() - started, cpuMs: cpuMsSince(cpu), viewMessages, viewBytes };
  } finally {
    await dispose();
  }
}

async function main(): Promise<void> {
  if (process.env.BENCH_HOST_ONLY === 'pipeline') {
    // For profiling (node --cpu-prof): the pipeline alone.
    process.stdout.write(JSON.stringify({ chunks: CHUNKS, pipeline: [await ours()] }) + '\n');
    return;
  }
  if (process.env.BENCH_HOST_ONLY === 'bare') {
    // For profiling: the bare SDK client alone, to set beside the pipeline's profile.
    process.stdout.write(JSON.stringify({ chunks: CHUNKS, bare: [await bareSdk()] }) + '\n');
    return;
  }
  // One warm-up of each (JIT, file cache), then alternate so machine noise hits both alike.
  await bareSdk();
  await ours();
  const bare: RunFigures[] = [];
  const pipeline: RunFigures[] = [];
  for (let run = 0; run < RUNS; run++) {
    bare.push(await bareSdk());
    pipeline.push(await ours());
  }
  process.stdout.write(JSON.stringify({ chunks: CHUNKS, bare, pipeline }) + '\n');
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
