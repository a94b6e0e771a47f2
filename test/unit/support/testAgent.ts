import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentClient, type AgentClientOptions } from '../../../src/core/connection/agentClient';
import type { AgentSession } from '../../../src/core/session/agentSession';
import { NodeFileSystem } from '../../../src/core/node/nodeFileSystem';
import { NodeTerminals } from '../../../src/features/terminals/core/nodeTerminals';
import {
  chooseKind,
  PolicyPermissions,
  type PermissionPolicy,
} from '../../../src/features/permissions/core/policyPermissions';
import type { ElicitationPort, FileSystemPort, Logger } from '../../../src/core/ports';
import type { ThreadEvent, Turn } from '../../../src/core/thread/threadTypes';
import { perTest } from '../../support/perTest';

/** The scriptable test agent, built by `node esbuild.mjs` (npm test and test:unit build first). */
export const TEST_AGENT_JS = path.resolve(__dirname, '../../../dist/demo-agent.js');

/** A logger that keeps every line, so tests can assert what was logged. */
export class RecordingLogger implements Logger {
  readonly lines: { level: 'trace' | 'info' | 'warn' | 'error'; message: string }[] = [];
  trace(message: string): void {
    this.lines.push({ level: 'trace', message });
  }
  info(message: string): void {
    this.lines.push({ level: 'info', message });
  }
  warn(message: string): void {
    this.lines.push({ level: 'warn', message });
  }
  error(message: string): void {
    this.lines.push({ level: 'error', message });
  }
  messages(level: 'trace' | 'info' | 'warn' | 'error'): string[] {
    return this.lines.filter((line) => line.level === level).map((line) => line.message);
  }
}

export interface TestAgentOptions {
  readonly env?: Record<string, string>;
  readonly policy?: PermissionPolicy;
  readonly fileSystem?: FileSystemPort;
  readonly client?: Partial<AgentClientOptions>;
  /** Given: the client advertises elicitation and answers through it. */
  readonly elicitation?: ElicitationPort;
  /** How the client is started (default `AgentClient.start`; e.g. a built connection bundle's). */
  readonly start?: (options: AgentClientOptions) => Promise<AgentClient>;
}

export interface TestAgent {
  readonly client: AgentClient;
  readonly logger: RecordingLogger;
  readonly permissions: PolicyPermissions;
  readonly terminals: NodeTerminals;
  /** A temporary folder used as the session cwd; removed by `stop()`. */
  readonly dir: string;
  /** A new session on this agent, in `dir`. */
  session(): Promise<AgentSession>;
  stop(): Promise<void>;
}

/** Starts the test agent as a real child process over stdio. */
export async function startTestAgent(options: TestAgentOptions = {}): Promise<TestAgent> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-test-'));
  const logger = new RecordingLogger();
  const permissions = new PolicyPermissions(options.policy ?? chooseKind('allow_once'));
  const terminals = new NodeTerminals(dir);
  const start = options.start ?? ((clientOptions) => AgentClient.start(clientOptions));
  const client = await start({
    command: { command: process.execPath, args: [TEST_AGENT_JS], cwd: dir, env: options.env ?? {} },
    ports: {
      fileSystem: options.fileSystem ?? new NodeFileSystem(),
      permissions,
      terminals,
      logger,
      ...(options.elicitation ? { elicitation: options.elicitation } : {}),
    },
    ...options.client,
  });
  return { ...inFolder(client, dir, () => terminals.dispose()), logger, permissions, terminals };
}

/**
 * An agent client whose sessions run in `dir`, its own temp folder: `stop()` stops the client, then
 * `cleanUp`, then removes the folder.
 */
export function inFolder(
  client: AgentClient,
  dir: string,
  cleanUp?: () => Promise<void>,
): Pick<TestAgent, 'client' | 'dir' | 'session' | 'stop'> {
  return {
    client,
    dir,
    session: () => client.newSession({ cwd: dir }),
    async stop() {
      await client.stop();
      await cleanUp?.();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A new session on `agent` and the ended turn of `prompt` in it. */
export async function firstTurn(
  agent: { session(): Promise<AgentSession> },
  prompt: string,
): Promise<{ session: AgentSession; turn: Turn }> {
  const session = await agent.session();
  return { session, turn: await session.prompt([text(prompt)]) };
}

/** Collects a session's events from now on. */
export function recordEvents(session: AgentSession): ThreadEvent[] {
  const events: ThreadEvent[] = [];
  session.onEvent((event) => events.push(event));
  return events;
}

/** A session's entries without their generated ids, for exact comparisons. */
export function entriesOf(session: AgentSession): unknown[] {
  return session.thread.snapshot().entries.map(({ id: _id, ...rest }) => rest);
}

/** The ids of the sessions `agent` lists (its first page). */
export async function listedIds(agent: Pick<TestAgent, 'client'>): Promise<string[]> {
  return (await agent.client.listSessions()).sessions.map((info) => info.sessionId);
}

/** The entry an agent's answer `text` in `turn` leaves in the thread, as `entriesOf` gives it. */
export function agentEntry(
  turn: { readonly id: string },
  text: string,
): { kind: 'agent'; turnId: string; text: string; attachments: [] } {
  return { kind: 'agent', turnId: turn.id, text, attachments: [] };
}

/** Resolves when `predicate` holds, checking after every thread event; rejects after `ms`. */
export function waitFor(session: AgentSession, predicate: () => boolean, ms = 5000): Promise<void> {
  if (predicate()) {
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error('condition not reached in time'));
    }, ms);
    const subscription = session.onEvent(() => {
      if (predicate()) {
        clearTimeout(timer);
        subscription.dispose();
        resolve();
      }
    });
  });
}

export function text(value: string): { type: 'text'; text: string } {
  return { type: 'text', text: value };
}

/** The test agent of `useTestAgent`: the one started for the running test. */
export interface TestAgentPerTest extends TestAgent {
  /** Stops this test's agent and starts another with `options` in its place. */
  restart(options?: TestAgentOptions): Promise<void>;
}

/**
 * Per test: a test agent started with `options` before it and stopped (its folder removed) after it;
 * the object returned reads the running test's agent.
 */
export function useTestAgent(options?: TestAgentOptions): TestAgentPerTest {
  const agent = perTest(
    'the test agent',
    () => startTestAgent(options),
    (started) => started.stop(),
  );
  return {
    get client() {
      return agent.value.client;
    },
    get logger() {
      return agent.value.logger;
    },
    get permissions() {
      return agent.value.permissions;
    },
    get terminals() {
      return agent.value.terminals;
    },
    get dir() {
      return agent.value.dir;
    },
    session: () => agent.value.session(),
    stop: () => agent.value.stop(),
    restart: (restartOptions?: TestAgentOptions) => agent.replace(() => startTestAgent(restartOptions)),
  };
}

/**
 * Per test: a state folder for the test agent (`TEST_AGENT_STATE_DIR`: its sessions outlive its
 * process, as a real agent's do) and every agent the test starts, all stopped and removed after it.
 */
export function useTestAgents(): {
  readonly stateDir: string;
  start(options?: TestAgentOptions): Promise<TestAgent>;
  /** Starts one that saves its sessions in `stateDir`, so a later agent (another process) can load them. */
  startKeepingSessions(options?: TestAgentOptions): Promise<TestAgent>;
} {
  let stateDir: string | undefined;
  const started: TestAgent[] = [];
  beforeEach(() => {
    stateDir = mkdtempSync(path.join(os.tmpdir(), 'acp-state-'));
  });
  afterEach(async () => {
    for (const agent of started.splice(0)) {
      await agent.stop();
    }
    if (stateDir !== undefined) {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
  const agents = {
    get stateDir() {
      if (stateDir === undefined) {
        throw new Error('the state folder is made in beforeEach');
      }
      return stateDir;
    },
    async start(options?: TestAgentOptions) {
      const agent = await startTestAgent(options);
      started.push(agent);
      return agent;
    },
    startKeepingSessions(options: TestAgentOptions = {}) {
      return agents.start({ ...options, env: { ...options.env, TEST_AGENT_STATE_DIR: agents.stateDir } });
    },
  };
  return agents;
}
