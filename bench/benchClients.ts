// The two clients the host benches compare, over the real demo agent's stdio: a bare SDK client (the floor
// any client pays) and the extension's whole host pipeline behind a real ChatController.
import * as acp from '@agentclientprotocol/sdk';
import { methods, ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { ChatController } from '../src/chat/chatController';
import { NodeFileSystem } from '../src/core/node/nodeFileSystem';
import { NodeTerminals } from '../src/features/terminals/core/nodeTerminals';
import { PolicyPermissions } from '../src/features/permissions/core/policyPermissions';
import { silentLogger } from '../src/core/ports';
import { AgentClient } from '../src/core/connection/agentClient';

export const AGENT_JS = process.env.BENCH_AGENT_JS ?? path.resolve(__dirname, '../dist/demo-agent.js');

/** A bare SDK client with an initialized agent and a new session; `onUpdate` sees every `session/update`. */
export interface BareSession {
  prompt(text: string): Promise<void>;
  close(): void;
}

export async function bareSession(
  name: string,
  onUpdate: (update: acp.SessionUpdate) => void,
  /** Where the agent keeps its sessions, as VS Code starts it (`TEST_AGENT_STATE_DIR`); none by default. */
  stateDir?: string,
): Promise<BareSession> {
  const env = stateDir === undefined ? process.env : { ...process.env, TEST_AGENT_STATE_DIR: stateDir };
  const child = spawn(process.execPath, [AGENT_JS], { stdio: ['pipe', 'pipe', 'ignore'], env });
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  const app = acp.client({ name });
  app.onNotification(methods.client.session.update, ({ params }) => onUpdate(params.update));
  const connection = app.connect(stream);
  const close = (): void => {
    connection.close();
    child.kill();
  };
  try {
    await connection.agent.request(methods.agent.initialize, {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: {},
    });
    const { sessionId } = await connection.agent.request(methods.agent.session.new, {
      cwd: os.tmpdir(),
      mcpServers: [],
    });
    return {
      prompt: async (text) => {
        await connection.agent.request(methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: 'text', text }],
        });
      },
      close,
    };
  } catch (error) {
    close();
    throw error;
  }
}

/** A real ChatController on the demo agent, in its own temp workspace and storage. */
export interface BenchChat {
  readonly controller: ChatController;
  dispose(): Promise<void>;
}

/** `prepareStorage` runs before the controller reads its storage (a bench puts a chat's journal there). */
export function benchChat(prepareStorage?: (storageDir: string) => void): BenchChat {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-bench-'));
  const storageDir = mkdtempSync(path.join(os.tmpdir(), 'acp-bench-storage-'));
  prepareStorage?.(storageDir);
  const terminals = new NodeTerminals(dir);
  const controller = new ChatController({
    agents: () => ({
      agents: [{ id: 'bench', label: 'Bench agent', command: process.execPath, args: [AGENT_JS], env: {} }],
      errors: [],
    }),
    cwd: () => dir,
    startClient: (options) => AgentClient.start(options),
    ports: {
      fileSystem: new NodeFileSystem(),
      permissions: new PolicyPermissions(() => undefined),
      terminals,
      logger: silentLogger,
    },
    editor: {
      openFile: async () => {},
      openUrl: async () => {},
      checkAgents: async () => {},
      manageTrust: async () => {},
    },
    storageDir,
  });
  return {
    controller,
    dispose: async () => {
      await controller.shutdown();
      controller.dispose();
      await terminals.dispose();
      rmSync(dir, { recursive: true, force: true });
      rmSync(storageDir, { recursive: true, force: true });
    },
  };
}
