// The host's memory (run by bench/run.mjs with tsx and --expose-gc; expects dist/demo-agent.js), through
// a real ChatController on the demo agent, every view message serialised as postMessage would:
//  - a long chat: 2,000 finished turns (the webview bench's: 6,000 entries with code, diffs, checkpoints
//    and change cards) read back from its journal and shown in a view — the heap it holds after a GC,
//    beside an empty chat's;
//  - a 10 MB answer (`stream 10000 size 1000 burst`: 10,000 chunks of 1,000 characters) streamed to a
//    view — the heap after a GC at every view message (its peak over the start) and once the turn has
//    ended (what the answer keeps); and half of it (5 MB) before: past the thread's caps (a message keeps its
//    head and its end) the second 5 MB must add nothing — the host's memory per chunk is the difference.
// Prints JSON on its last line (and its rows when run alone: BENCH_ONLY=hostmemory).
//
//   BENCH_LONG_TURNS (default 2000)  BENCH_STREAM_CHUNKS (default 10000)  BENCH_STREAM_CHUNK_CHARS (default 1000)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import type { HostMessage } from '../src/protocol';
import { benchChat } from './benchClients';
import { formatRow, hostMemoryRows } from './rows.mjs';
import { longChatSnapshot } from './workloads.mjs';

const TURNS = Number(process.env.BENCH_LONG_TURNS ?? 2000);
const CHUNKS = Number(process.env.BENCH_STREAM_CHUNKS ?? 10_000);
const CHUNK_CHARS = Number(process.env.BENCH_STREAM_CHUNK_CHARS ?? 1000);
const LONG_CHAT_ID = 'bench-host-long';
const MIB = 1024 * 1024;

const gc = (globalThis as { gc?: () => void }).gc;

/** The heap in use after a full garbage collection (MiB). */
function heapMb(): number {
  if (!gc) {
    throw new Error('run with node --expose-gc');
  }
  gc();
  return process.memoryUsage().heapUsed / MIB;
}

function writeLongChat(storageDir: string): void {
  const dir = join(storageDir, 'chats');
  mkdirSync(dir, { recursive: true });
  const now = Date.now();
  const meta = {
    chatId: LONG_CHAT_ID,
    agentId: 'bench',
    customTitle: 'Long',
    createdAt: now,
    updatedAt: now,
  };
  const thread = longChatSnapshot(TURNS).view.chat.thread;
  writeFileSync(
    join(dir, `${LONG_CHAT_ID}.jsonl`),
    `${JSON.stringify({ t: 'meta', meta })}\n${JSON.stringify({ t: 'snapshot', thread })}\n`,
  );
}

/** The heap with a controller showing a chat: the long one from its journal, or a new empty one. */
async function shownChatHeap(long: boolean): Promise<{ heapMb: number; turns: number }> {
  const chat = benchChat(long ? writeLongChat : undefined);
  try {
    let turns = -1;
    chat.controller.attachView({
      post(message: HostMessage): void {
        JSON.stringify(message);
        if (message.type === 'snapshot' && message.view.chat) {
          turns = message.view.chat.thread.turns.length;
        }
      },
    });
    await chat.controller.handleMessage({ type: 'ready' });
    if (long) {
      await chat.controller.handleMessage({ type: 'switch_chat', chatId: LONG_CHAT_ID });
    }
    return { heapMb: heapMb(), turns };
  } finally {
    await chat.dispose();
  }
}

interface StreamFigures {
  readonly chunks: number;
  readonly chunkChars: number;
  readonly startHeapMb: number;
  readonly peakHeapMb: number;
  readonly endHeapMb: number;
  readonly viewMessages: number;
  /** Characters of the answer the view was sent (its head, the marker, then its end once finished). */
  readonly shownChars: number;
}

/** A 10 MB answer through the pipeline: the heap while it streams and after. */
async function streamHeap(chunks: number): Promise<StreamFigures> {
  const chat = benchChat();
  let viewMessages = 0;
  let shownChars = 0;
  let peak = 0;
  let ended: (() => void) | undefined;
  chat.controller.attachView({
    post(message: HostMessage): void {
      const json = JSON.stringify(message);
      if (ended === undefined) {
        return;
      }
      viewMessages++;
      shownChars += json.length;
      peak = Math.max(peak, heapMb());
      if (message.type === 'thread_events' && message.events.some((event) => event.type === 'turn_ended')) {
        ended();
      }
    },
  });
  try {
    await chat.controller.handleMessage({ type: 'ready' });
    await chat.controller.connectActive();
    const startHeapMb = heapMb();
    const done = new Promise<void>((resolve) => (ended = resolve));
    await chat.controller.handleMessage({ type: 'send', text: `stream ${chunks} size ${CHUNK_CHARS} burst` });
    await done;
    const endHeapMb = heapMb();
    return {
      chunks,
      chunkChars: CHUNK_CHARS,
      startHeapMb,
      peakHeapMb: Math.max(peak, endHeapMb),
      endHeapMb,
      viewMessages,
      shownChars,
    };
  } finally {
    await chat.dispose();
  }
}

async function main(): Promise<void> {
  const loadBefore = loadavg()[0] ?? 0;
  // Warm-up (modules loaded, JIT), then each figure once: the heap after a GC does not swing as time does.
  await shownChatHeap(false);
  const empty = await shownChatHeap(false);
  const long = await shownChatHeap(true);
  if (long.turns !== TURNS) {
    throw new Error(`the long chat showed ${long.turns} turns, not ${TURNS}`);
  }
  // Half the answer, then all of it: what the host keeps must not grow with the answer past the caps.
  const halfStream = await streamHeap(CHUNKS / 2);
  const stream = await streamHeap(CHUNKS);
  const figures = {
    turns: TURNS,
    emptyChatHeapMb: empty.heapMb,
    longChatHeapMb: long.heapMb,
    halfStream,
    stream,
    loadAverage: [loadBefore, loadavg()[0] ?? 0],
  };
  if (process.env.BENCH_ONLY === 'hostmemory') {
    for (const row of hostMemoryRows(figures)) {
      process.stdout.write(formatRow(row) + '\n');
    }
  }
  process.stdout.write(JSON.stringify(figures) + '\n');
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
