import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { offlineClaudeEnv } from '../../fixtures/llm/offlineClaudeEnv';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentClient } from '../../../src/core/connection/agentClient';
import { NodeFileSystem } from '../../../src/core/node/nodeFileSystem';
import { NodeTerminals } from '../../../src/features/terminals/core/nodeTerminals';
import {
  chooseKind,
  PolicyPermissions,
  type PermissionPolicy,
} from '../../../src/features/permissions/core/policyPermissions';
import type {
  FileSystemPort,
  TerminalCreateRequest,
  TerminalExit,
  TerminalOutput,
  TerminalPort,
} from '../../../src/core/ports';
import { startAnthropicStub, type AnthropicStub, type LlmScript } from '../../fixtures/llm/anthropicStub';
import { RecordingLogger } from './testAgent';

/** The real Claude Code ACP adapter (a devDependency), run unmodified against the scripted LLM. */
export const CLAUDE_CODE_ACP_JS = path.resolve(
  __dirname,
  '../../../node_modules/@zed-industries/claude-code-acp/dist/index.js',
);

export type FileSystemCall =
  | { readonly op: 'read'; readonly path: string; readonly sessionId: string }
  | { readonly op: 'write'; readonly path: string; readonly content: string; readonly sessionId: string };

/** The disk file-system port, recording every call the agent made through it. */
export class RecordingFileSystem implements FileSystemPort {
  readonly calls: FileSystemCall[] = [];
  private readonly disk = new NodeFileSystem();

  readTextFile(filePath: string, context: { sessionId: string }): Promise<string> {
    this.calls.push({ op: 'read', path: filePath, sessionId: context.sessionId });
    return this.disk.readTextFile(filePath);
  }

  writeTextFile(filePath: string, content: string, context: { sessionId: string }): Promise<void> {
    this.calls.push({ op: 'write', path: filePath, content, sessionId: context.sessionId });
    return this.disk.writeTextFile(filePath, content);
  }
}

export type TerminalCall =
  | { readonly op: 'create'; readonly request: TerminalCreateRequest; readonly terminalId: string }
  | { readonly op: 'wait_for_exit'; readonly terminalId: string; readonly exit: TerminalExit }
  | { readonly op: 'output'; readonly terminalId: string; readonly output: TerminalOutput }
  | { readonly op: 'kill' | 'release'; readonly terminalId: string };

/** `child_process` terminals, recording every call the agent made and its answer. */
export class RecordingTerminals implements TerminalPort {
  readonly calls: TerminalCall[] = [];
  private readonly inner: NodeTerminals;
  readonly onDidChange: NodeTerminals['onDidChange'];

  constructor(defaultCwd: string) {
    this.inner = new NodeTerminals(defaultCwd);
    this.onDidChange = this.inner.onDidChange;
  }

  async create(request: TerminalCreateRequest): Promise<string> {
    const terminalId = await this.inner.create(request);
    this.calls.push({ op: 'create', request, terminalId });
    return terminalId;
  }

  async waitForExit(terminalId: string): Promise<TerminalExit> {
    const exit = await this.inner.waitForExit(terminalId);
    this.calls.push({ op: 'wait_for_exit', terminalId, exit });
    return exit;
  }

  async output(terminalId: string): Promise<TerminalOutput> {
    const output = await this.inner.output(terminalId);
    this.calls.push({ op: 'output', terminalId, output });
    return output;
  }

  kill(terminalId: string): Promise<void> {
    this.calls.push({ op: 'kill', terminalId });
    return this.inner.kill(terminalId);
  }

  release(terminalId: string): Promise<void> {
    this.calls.push({ op: 'release', terminalId });
    return this.inner.release(terminalId);
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }
}

/** One JSON-RPC message as it crossed the wire, parsed from the protocol trace. */
export interface WireMessage {
  readonly dir: 'in' | 'out';
  readonly msg: {
    readonly id?: number | string;
    readonly method?: string;
    readonly params?: { readonly update?: { readonly sessionUpdate?: string; readonly toolCallId?: string } };
    readonly result?: unknown;
  };
}

export interface RealAdapter {
  readonly client: AgentClient;
  readonly stub: AnthropicStub;
  readonly logger: RecordingLogger;
  readonly permissions: PolicyPermissions;
  readonly fileSystem: RecordingFileSystem;
  readonly terminals: RecordingTerminals;
  /** The session cwd (a fresh temporary folder). */
  readonly project: string;
  /** Milliseconds from spawning the adapter to the end of `initialize`. */
  readonly startMs: number;
  /** Every protocol message so far, both directions, in order. */
  wire(): WireMessage[];
  /** Stops the adapter, the stub and the terminals and removes the temporary folders. */
  stop(): Promise<void>;
}

export interface RealAdapterOptions {
  /** The model's script (default: a one-line answer); `stub.setScript` changes it later. */
  readonly script?: LlmScript;
  readonly policy?: PermissionPolicy;
  /** Advertise terminal sign-in, as the chat in VS Code does. */
  readonly terminalAuth?: boolean;
}

const TRACE = /^(client → agent|agent → client) (.*)$/s;

/** Starts the scripted LLM, then the real adapter against it with the Node ports, offline. */
export async function startRealAdapter(options: RealAdapterOptions = {}): Promise<RealAdapter> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'acp-real-'));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  mkdirSync(path.join(home, '.claude'), { recursive: true });
  mkdirSync(project);
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(root, { recursive: true, force: true })];
  const cleanUp = async (): Promise<void> => {
    for (const step of cleanups.splice(0).reverse()) {
      await step();
    }
  };
  try {
    const stub = await startAnthropicStub(options.script ?? { kind: 'text', text: 'Hello.' });
    cleanups.push(() => stub.close());
    const logger = new RecordingLogger();
    const permissions = new PolicyPermissions(options.policy ?? chooseKind('allow_once'));
    const fileSystem = new RecordingFileSystem();
    const terminals = new RecordingTerminals(project);
    cleanups.push(() => terminals.dispose());
    const started = Date.now();
    const client = await AgentClient.start({
      command: {
        command: process.execPath,
        args: [CLAUDE_CODE_ACP_JS],
        cwd: project,
        env: {
          ...offlineClaudeEnv(home, stub.url),
        },
      },
      ports: { fileSystem, permissions, terminals, logger },
      traceProtocol: true,
      ...(options.terminalAuth ? { terminalAuth: true } : {}),
    });
    const startMs = Date.now() - started;
    cleanups.push(async () => {
      await client.stop();
    });
    return {
      client,
      stub,
      logger,
      permissions,
      fileSystem,
      terminals,
      project,
      startMs,
      wire: () =>
        logger.messages('trace').flatMap((line) => {
          const match = TRACE.exec(line);
          return match?.[2]
            ? [
                {
                  dir: match[1] === 'agent → client' ? 'in' : 'out',
                  msg: JSON.parse(match[2]),
                } as WireMessage,
              ]
            : [];
        }),
      stop: cleanUp,
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
