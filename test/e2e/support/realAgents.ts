/**
 * Real agents for the e2e suites: the unmodified @zed-industries/claude-code-acp adapter (a devDependency;
 * Claude Code inside) configured in `acpAgents.agents` like any user's agent, its model the scripted
 * Anthropic stub (test/fixtures/llm/anthropicStub.ts) run in the mocha process on 127.0.0.1 — one stub per
 * agent entry, so each agent says its own thing. A `ModelGate` in front of a stub holds the agent's model
 * requests until the test lets them through: the agent's next step (its permission request) then comes
 * exactly when the test wants it.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../../scripts/tools.mjs';
import { startAnthropicStub, type AnthropicStub, type LlmScript } from '../../fixtures/llm/anthropicStub';
import { offlineClaudeEnv } from '../../fixtures/llm/offlineClaudeEnv';
import { until } from '../../support/until';

/** The adapter's entry point in the extension's node_modules (the extension runs from this checkout). */
export function adapterScript(): string {
  const script = join(repoRoot, 'node_modules', '@zed-industries', 'claude-code-acp', 'dist', 'index.js');
  assert.ok(existsSync(script), `the claude-code-acp devDependency is not installed (${script})`);
  return script;
}

export interface RealAgentOptions {
  /** Claude Code permission rules of the agent's user settings (e.g. `Edit`: edits without asking). */
  readonly allow?: readonly string[];
  /** Put a gate in front of the stub (see `ModelGate`). */
  readonly gated?: boolean;
}

/** One agent entry of `acpAgents.agents` running the real adapter against a stub of its own. */
export interface RealAgent {
  readonly name: string;
  readonly stub: AnthropicStub;
  /** Present when made `gated`. */
  readonly gate?: ModelGate;
  /** The entry for `acpAgents.agents`. */
  readonly setting: { name: string; command: string; args: string[]; env: Record<string, string> };
  dispose(): Promise<void>;
}

/** Starts the stub (and gate) of an agent named `name` whose model answers with `script`. */
export async function realAgent(name: string, script: LlmScript, options: RealAgentOptions = {}): Promise<RealAgent> {
  const stub = await startAnthropicStub(script, { lifetimeMs: 15 * 60_000 });
  const gate = options.gated ? await startModelGate(stub.url) : undefined;
  // A home of its own: Claude Code keeps its config and sessions there.
  const home = mkdtempSync(join(tmpdir(), 'acp-e2e-claude-'));
  mkdirSync(join(home, '.claude'), { recursive: true });
  if (options.allow) {
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: options.allow } }));
  }
  return {
    name,
    stub,
    ...(gate ? { gate } : {}),
    setting: {
      name,
      // The mocha process's Node: code-server's extension host runs its own, either starts the adapter.
      command: process.execPath,
      args: [adapterScript()],
      env: offlineClaudeEnv(home, gate?.url ?? stub.url),
    },
    async dispose() {
      await endProcessesOf(home);
      await gate?.close();
      await stub.close();
      rmSync(home, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

/**
 * Passes requests on to the stub at `target`, except the agent loop's model requests (streamed, with
 * tools) while held: those wait until `release`. Claude Code's helper requests (titles, summaries) pass.
 */
export interface ModelGate {
  readonly url: string;
  /** How many agent-loop requests wait now. */
  readonly waiting: number;
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

async function startModelGate(target: string): Promise<ModelGate> {
  let opened: Promise<void> = Promise.resolve();
  let open: (() => void) | undefined;
  let waiting = 0;
  const server: Server = createServer((incoming, outgoing) => {
    void readAll(incoming).then(async (body) => {
      if (isAgentLoopRequest(incoming, body)) {
        waiting++;
        await opened;
        waiting--;
      }
      const onward = request(
        new URL(incoming.url ?? '/', target),
        { method: incoming.method, headers: { ...incoming.headers, host: new URL(target).host } },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      onward.on('error', () => outgoing.destroy());
      onward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get waiting() {
      return waiting;
    },
    hold() {
      opened = new Promise((resolve) => (open = resolve));
    },
    release() {
      open?.();
      open = undefined;
    },
    close() {
      open?.();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function isAgentLoopRequest(incoming: IncomingMessage, body: Buffer): boolean {
  if (incoming.method !== 'POST' || (incoming.url ?? '').split('?')[0] !== '/v1/messages') {
    return false;
  }
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { stream?: boolean; tools?: unknown[] };
    return parsed.stream === true && (parsed.tools?.length ?? 0) > 0;
  } catch {
    return false;
  }
}

function readAll(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => resolve(Buffer.concat(chunks)));
    incoming.on('error', reject);
  });
}

/**
 * Ends the adapter processes (with Claude Code below them, in their process group) that run with `home`
 * as their HOME — this agent's alone. The extension host ends them when it stops; when code-server is
 * killed instead, an adapter waiting on its model would outlive it.
 */
async function endProcessesOf(home: string): Promise<void> {
  for (const pid of processesOf(home)) {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // not a group leader, or gone: its leader is ended by the same loop
    }
  }
  await until(() => processesOf(home).length === 0, `the adapter processes of ${home} to end`, 15_000);
}

function processesOf(home: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`HOME=${home}`);
      } catch {
        return false; // gone, or not ours to read
      }
    })
    .map(Number);
}
