// The host's share of the chunk → DOM latency (run by bench/run.mjs with tsx, beside bench/latency.ts):
// the demo agent's `timed` scenario over real stdio, read by
//  - a bare SDK client, stamping each chunk when its `session/update` reaches the handler (stdio + SDK:
//    the floor any client pays), and
//  - the extension's host pipeline (SDK → normaliser → thread → journal → 17 ms batcher → view message,
//    serialised as postMessage would), stamping each chunk when the view message carrying it is posted.
// Same clock as the agent (Date.now()). Prints JSON on its last line.
//
//   BENCH_LATENCY_CHUNKS (default 1000)  BENCH_LATENCY_RATES (default "100,burst")
import * as acp from '@agentclientprotocol/sdk';
import { methods, ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { ChatController } from '../src/chat/chatController';
import { NodeFileSystem } from '../src/core/node/nodeFileSystem';
import { NodeTerminals } from '../src/core/node/nodeTerminals';
import { PolicyPermissions } from '../src/core/node/policyPermissions';
import { silentLogger } from '../src/core/ports';
import type { HostMessage } from '../src/protocol';

const AGENT_JS = process.env.BENCH_AGENT_JS ?? path.resolve(__dirname, '../dist/demo-agent.js');
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
  const child = spawn(process.execPath, [AGENT_JS], { stdio: ['pipe', 'pipe', 'ignore'] });
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  const seen = new Set<number>();
  const latencies: number[] = [];
  const app = acp.client({ name: 'bench-latency' });
  app.onNotification(methods.client.session.update, ({ params }) => {
    const update = params.update;
    if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') {
      collect(update.content.text, Date.now(), seen, latencies);
    }
  });
  const connection = app.connect(stream);
  try {
    await connection.agent.request(methods.agent.initialize, {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: {},
    });
    const { sessionId } = await connection.agent.request(methods.agent.session.new, {
      cwd: os.tmpdir(),
      mcpServers: [],
    });
    await connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: promptFor(rate) }],
    });
    while (latencies.length < CHUNKS) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    return latencies;
  } finally {
    connection.close();
    child.kill();
  }
}

/** agent → the host pipeline's view message (what the extension hands to webview.postMessage). */
async function ours(rate: string): Promise<number[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-bench-'));
  const storageDir = mkdtempSync(path.join(os.tmpdir(), 'acp-bench-storage-'));
  const terminals = new NodeTerminals(dir);
  const controller = new ChatController({
    agents: () => ({
      agents: [{ id: 'bench', label: 'Bench agent', command: process.execPath, args: [AGENT_JS], env: {} }],
      errors: [],
    }),
    cwd: () => dir,
    ports: {
      fileSystem: new NodeFileSystem(),
      permissions: new PolicyPermissions(() => undefined),
      terminals,
      logger: silentLogger,
    },
    editor: { openFile: async () => {}, openUrl: async () => {}, checkAgents: async () => {} },
    storageDir,
  });
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
    await controller.shutdown();
    controller.dispose();
    await terminals.dispose();
    rmSync(dir, { recursive: true, force: true });
    rmSync(storageDir, { recursive: true, force: true });
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
