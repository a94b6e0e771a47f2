import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentClient, type AgentClientOptions } from '../../src/core/connection/agentClient';
import type { AgentSession } from '../../src/core/session/agentSession';
import { NodeFileSystem } from '../../src/core/node/nodeFileSystem';
import { NodeTerminals } from '../../src/features/terminals/core/nodeTerminals';
import {
  chooseKind,
  PolicyPermissions,
  type PermissionPolicy,
} from '../../src/features/permissions/core/policyPermissions';
import { until as waitUntil } from '../support/until';
import { inFolder, RecordingLogger } from '../unit/support/testAgent';

export { firstTurn } from '../unit/support/testAgent';

/** The hostile agent: plain JavaScript, run by this Node over real stdio. */
export const HOSTILE_AGENT = path.resolve(__dirname, '../fixtures/hostile/hostileAgent.mjs');

export interface Hostile {
  readonly client: AgentClient;
  readonly logger: RecordingLogger;
  readonly dir: string;
  session(): Promise<AgentSession>;
  stop(): Promise<void>;
}

export interface HostileOptions {
  /** A startup fault (HOSTILE_START): `exit`, `silent`, `stderr-flood`. */
  readonly start?: string;
  readonly policy?: PermissionPolicy;
  readonly client?: Partial<AgentClientOptions>;
}

/** The agent's command for `AgentClient.start` (also for tests that expect the start to fail). */
export function hostileOptions(
  options: HostileOptions = {},
): AgentClientOptions & { readonly logger: RecordingLogger; readonly dir: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-hostile-'));
  const logger = new RecordingLogger();
  return {
    dir,
    logger,
    command: {
      command: process.execPath,
      args: [HOSTILE_AGENT],
      cwd: dir,
      env: options.start ? { HOSTILE_START: options.start } : {},
    },
    ports: {
      fileSystem: new NodeFileSystem(),
      permissions: new PolicyPermissions(options.policy ?? chooseKind('allow_once')),
      terminals: new NodeTerminals(dir),
      logger,
    },
    ...options.client,
  };
}

/** Starts the hostile agent and completes `initialize`. */
export async function startHostile(options: HostileOptions = {}): Promise<Hostile> {
  const { logger, dir, ...clientOptions } = hostileOptions(options);
  const client = await AgentClient.start(clientOptions);
  return { ...inFolder(client, dir), logger };
}

export function text(value: string): { type: 'text'; text: string } {
  return { type: 'text', text: value };
}

/** Resident memory and heap now, after a full collection when the test process allows one. */
export function memory(): { rss: number; heap: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  return { rss: usage.rss, heap: usage.heapUsed };
}

export const MiB = 1024 * 1024;

/** The shared `until` with the fault suites' longer default bound (a hostile agent under load). */
export function until(predicate: () => boolean, ms = 10_000): Promise<void> {
  return waitUntil(predicate, 'condition', ms);
}
