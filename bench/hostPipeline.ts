// Host streaming benchmark (run by bench/run.mjs with tsx): the real test agent (dist/demo-agent.js)
// streams N text chunks over real stdio, and two clients receive them:
//  - baseline: a bare SDK client that only counts the `session/update` notifications;
//  - ours: the whole host pipeline — SDK → normalizer → thread → journal → event batcher → view
//    messages, each serialized as postMessage would (JSON) — through a real ChatController.
// Both are timed from the prompt to the end of the turn, alternately, RUNS times. Prints JSON.
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
  const child = spawn(process.execPath, [AGENT_JS], { stdio: ['pipe', 'pipe', 'ignore'] });
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  let notifications = 0;
  const app = acp.client({ name: 'bench-bare' });
  app.onNotification(methods.client.session.update, () => {
    notifications++;
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
    const started = performance.now();
    const cpu = process.cpuUsage();
    await connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: `stream ${CHUNKS} burst` }],
    });
    // Notifications sent before the response may still be in the handler's queue.
    while (notifications < CHUNKS) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { ms: performance.now() - started, cpuMs: cpuMsSince(cpu), notifications };
  } finally {
    connection.close();
    child.kill();
  }
}

/** The extension's host pipeline, up to serialized view messages. */
async function ours(): Promise<RunFigures> {
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
    await controller.shutdown();
    controller.dispose();
    await terminals.dispose();
    rmSync(dir, { recursive: true, force: true });
    rmSync(storageDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (process.env.BENCH_HOST_ONLY === 'pipeline') {
    // For profiling (node --cpu-prof): the pipeline alone.
    process.stdout.write(JSON.stringify({ chunks: CHUNKS, pipeline: [await ours()] }) + '\n');
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
