import { strict as assert } from 'node:assert';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentProcess } from '../../../src/core/connection/agentProcess';
import {
  hostPlatform,
  ownProcessGroup,
  platformFor,
  type Platform,
  type Processes,
} from '../../../src/core/platform/platform';
import { endProcessTree } from '../../../src/core/platform/processTree';
import { until } from '../../support/until';
import { isAlive } from '../../support/processes';

/**
 * What `taskkill /pid N /T /F` does, on a host that has none: ends N and every process whose parent
 * chain leads to N (Windows has no process groups; /T follows parent ids). On Windows the real one runs.
 */
async function taskkillTree(args: readonly string[]): Promise<void> {
  const pid = Number(args[args.indexOf('/pid') + 1]);
  const parents = new Map<number, number>();
  for (const line of execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' }).split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    if (child !== undefined && parent !== undefined && !Number.isNaN(child)) {
      parents.set(child, parent);
    }
  }
  const inTree = (candidate: number): boolean => {
    for (
      let current: number | undefined = candidate;
      current !== undefined && current > 1;
      current = parents.get(current)
    ) {
      if (current === pid) {
        return true;
      }
    }
    return false;
  };
  for (const candidate of parents.keys()) {
    if (inTree(candidate)) {
      try {
        process.kill(candidate, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
}

/** Windows' rules for processes: `run` is recorded, and taskkill done as Windows would. */
function windows(ran: Array<readonly string[]>): Platform {
  const real = platformFor('win32').processes;
  const processes: Processes = {
    signalGroup: () => assert.fail('Windows has no process groups to signal'),
    run: async (program, args) => {
      ran.push([program, ...args]);
      await (process.platform === 'win32' ? real.run(program, args) : taskkillTree(args));
    },
    env: {
      ...process.env,
      SystemRoot: process.platform === 'win32' ? process.env['SystemRoot'] : 'C:\\Windows',
    },
  };
  return platformFor('win32', { processes });
}

describe('platform: ending a process and everything it started', () => {
  let dir: string;
  const strays: number[] = [];

  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-tree-'));
  });
  afterEach(() => {
    for (const pid of strays.splice(0)) {
      if (isAlive(pid)) {
        process.kill(pid, 'SIGKILL');
      }
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * An agent as npm starts one on Windows (`cmd.exe` running node): a wrapper whose child ignores
   * SIGTERM and keeps running; the wrapper writes the child's pid, and ends on stdin's end only if told.
   */
  function wrapper(endsOnEof: boolean): string {
    const file = path.join(dir, `wrapper-${endsOnEof}.js`);
    writeFileSync(
      file,
      `const { spawn } = require('node:child_process');
       const child = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: 'ignore' });
       process.stdout.write(child.pid + '\\n');
       ${endsOnEof ? "process.stdin.on('end', () => { child.kill('SIGKILL'); process.exit(0); }); process.stdin.resume();" : ''}
       setInterval(() => {}, 1000);`,
    );
    return file;
  }

  async function firstLine(agent: AgentProcess): Promise<number> {
    const reader = agent.stdout.getReader();
    let text = '';
    while (!text.includes('\n')) {
      const next = await reader.read();
      if (next.done) {
        break;
      }
      text += new TextDecoder().decode(next.value);
    }
    reader.releaseLock();
    return Number(text.trim());
  }

  it('on Windows, stops an agent and its child with taskkill /T /F once it did not end on its own', async () => {
    const ran: Array<readonly string[]> = [];
    const agent = new AgentProcess(
      { command: process.execPath, args: [wrapper(false)], cwd: dir },
      { stopGraceMs: 200, platform: windows(ran) },
    );
    const grandchild = await firstLine(agent);
    strays.push(grandchild, agent.pid as number);
    await agent.stop();
    await until(() => !isAlive(grandchild), `the agent's child ${grandchild} ended`, 5000);
    assert.deepEqual(ran, [['C:\\Windows\\System32\\taskkill.exe', '/pid', String(agent.pid), '/T', '/F']]);
  });

  it('on Windows, lets an agent that ends when its stdin closes end by itself: no taskkill', async () => {
    const ran: Array<readonly string[]> = [];
    const agent = new AgentProcess(
      { command: process.execPath, args: [wrapper(true)], cwd: dir },
      { stopGraceMs: 5000, platform: windows(ran) },
    );
    const grandchild = await firstLine(agent);
    strays.push(grandchild);
    assert.deepEqual(await agent.stop(), { code: 0, signal: null });
    assert.deepEqual(ran, []);
  });

  it('on macOS and Linux, signals the process group: SIGTERM, the grace, then SIGKILL for what is left', async () => {
    for (const system of ['darwin', 'linux'] as const) {
      const signals: string[] = [];
      const rules = platformFor(system, {
        processes: {
          ...platformFor(system).processes,
          signalGroup: (pid, signal) => signals.push(`${signal} -${pid}`),
        },
      });
      const leaderEnded = Promise.resolve();
      await endProcessTree({ pid: 4242 }, leaderEnded, { graceMs: 60_000 }, rules);
      // The leader ended on SIGTERM: no grace waited, and the group still gets SIGKILL (a child may ignore SIGTERM).
      assert.deepEqual(signals, ['SIGTERM -4242', 'SIGKILL -4242'], system);
      signals.length = 0;
      await endProcessTree({ pid: 4343 }, new Promise(() => {}), { graceMs: 20 }, rules);
      assert.deepEqual(signals, ['SIGTERM -4343', 'SIGKILL -4343'], system);
      assert.deepEqual(ownProcessGroup(rules), { detached: true });
    }
    assert.deepEqual(ownProcessGroup(platformFor('win32')), { detached: false });
  });

  it('on this machine, ends a real tree whose child ignores SIGTERM', async () => {
    const rules = hostPlatform();
    const child = spawn(process.execPath, [wrapper(false)], {
      stdio: ['ignore', 'pipe', 'ignore'],
      ...ownProcessGroup(rules),
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const grandchild = await new Promise<number>((resolve) =>
      child.stdout.once('data', (data: Buffer) => resolve(Number(String(data).trim()))),
    );
    strays.push(grandchild);
    await endProcessTree(child, exited, { graceMs: 200 }, rules);
    assert.equal(child.exitCode !== null || child.signalCode !== null, true, 'the leader ended');
    await until(() => !isAlive(grandchild), `the child ${grandchild} that ignored SIGTERM ended`, 5000);
  });
});
