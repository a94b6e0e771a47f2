import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentPool, type AgentPoolDeps } from '../../src/chat/agentPool';
import type { AgentDefinition } from '../../src/chat/agentSettings';
import { NodeFileSystem } from '../../src/core/node/nodeFileSystem';
import { NodeTerminals } from '../../src/features/terminals/core/nodeTerminals';
import { PolicyPermissions } from '../../src/features/permissions/core/policyPermissions';
import { testAgent, until } from './support/chatHarness';
import { RecordingLogger, TEST_AGENT_JS } from './support/testAgent';
import { AgentClient } from '../../src/core/connection/agentClient';
import FakeTimers from '@sinonjs/fake-timers';

/** This process's children running the test agent, from /proc (the test machine is Linux). */
function agentProcesses(): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
      if (
        parent === process.pid &&
        state !== 'Z' &&
        readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(TEST_AGENT_JS)
      ) {
        found.push(pid);
      }
    } catch {
      // The process ended meanwhile.
    }
  }
  return found;
}

/** A pool of one test agent in `dir`, on real ports (`more`: the pool's other settings). */
function testPool(agent: AgentDefinition, dir: string, more: Partial<AgentPoolDeps> = {}): AgentPool {
  return new AgentPool({
    agents: () => ({ agents: [agent], errors: [] }),
    cwd: () => dir,
    startClient: (options) => AgentClient.start(options),
    ports: {
      fileSystem: new NodeFileSystem(),
      permissions: new PolicyPermissions(() => undefined),
      terminals: new NodeTerminals(dir),
      logger: new RecordingLogger(),
    },
    ...more,
  });
}

describe('agent pool: a stop while the agent is starting', () => {
  let dir: string;
  let pool: AgentPool;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-pool-'));
    // The agent answers initialize after 2 s: the stop lands while its process runs and starts.
    pool = testPool(testAgent('slow', { TEST_AGENT_INIT_DELAY_MS: '2000' }), dir);
  });

  afterEach(async () => {
    await pool.stopAll();
    pool.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops the process being started, hands out no client and leaves the agent idle', async () => {
    const starting = pool.client('slow');
    const outcome = starting.then(
      () => 'started',
      (error: Error) => error.message,
    );
    await until(() => agentProcesses().length === 1, 'the agent process to run');
    assert.equal(pool.status('slow').state, 'starting');

    await pool.stop('slow');
    assert.equal(await outcome, 'Test slow was stopped while it was starting.');
    assert.equal(pool.running('slow'), undefined);
    assert.equal(pool.status('slow').state, 'idle');
    await until(() => agentProcesses().length === 0, 'the agent process to end');
  });

  it('starts afresh on the next use after such a stop', async () => {
    const first = pool.client('slow').catch((error: Error) => error);
    await until(() => agentProcesses().length === 1, 'the agent process to run');
    await pool.stop('slow');
    assert.ok((await first) instanceof Error);

    const client = await pool.client('slow');
    assert.equal(client.connected, true);
    assert.equal(pool.running('slow'), client);
    assert.equal(pool.status('slow').state, 'ready');
    assert.equal(agentProcesses().length, 1);
  });

  it('stopping every agent during a start leaves no process behind', async () => {
    const starting = pool.client('slow').catch(() => undefined);
    await until(() => agentProcesses().length === 1, 'the agent process to run');
    await pool.stopAll();
    await starting;
    await until(() => agentProcesses().length === 0, 'the agent process to end');
  });
});

describe('agent pool: an idle agent is stopped after the idle time', () => {
  let dir: string;
  let pool: AgentPool;
  let clock: ReturnType<typeof FakeTimers.install> | undefined;
  /** How often the pool read the idle time. */
  let reads = 0;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-pool-idle-'));
    reads = 0;
    pool = testPool(testAgent('idle'), dir, {
      idleStopMs: () => {
        reads++;
        return 60_000;
      },
    });
  });

  afterEach(async () => {
    clock?.uninstall();
    clock = undefined;
    await pool.stopAll();
    pool.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops the agent once idle for the idle time, and never while a turn runs', async () => {
    await pool.client('idle');
    // Only the idle timer is faked: the agent's pipes and the stop itself run as they do.
    clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout'] });
    pool.setBusy('idle', true);
    assert.equal(reads, 0, 'a Send marks the agent busy without reading the setting');
    clock.tick(120_000);
    assert.equal(pool.status('idle').state, 'ready', 'a busy agent is kept');

    pool.setBusy('idle', false);
    assert.equal(reads, 1);
    clock.tick(59_999);
    assert.equal(pool.status('idle').state, 'ready');
    clock.tick(1);
    clock.uninstall();
    clock = undefined;
    await until(() => pool.status('idle').state === 'idle', 'the idle agent to stop');
    await until(() => agentProcesses().length === 0, 'the agent process to end');
  });
});
