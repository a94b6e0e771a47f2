import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { NodeTerminals } from '../../../src/features/terminals/core/nodeTerminals';
import { useTempFolder } from '../../support/tempFolder';

/** PF_EXITING in /proc/<pid>/stat's flags: set as the kernel starts ending the process. */
const PF_EXITING = 0x4;

/**
 * A pid is gone when /proc has no entry for it, it is a zombie waiting to be reaped, or it is
 * already exiting: it runs no more of its own code. The last matters because release resolves on
 * the leader's 'close', when every process has closed its end of the output pipe — and a process
 * closes its files partway through exiting, before it becomes a zombie.
 */
function gone(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return true; // reaped, also between a look and a read
  }
  const fields = stat.replace(/^.*\) /s, '').split(' ');
  const [state, flags] = [fields[0], Number(fields[6])];
  return state === 'Z' || state === 'X' || (flags & PF_EXITING) !== 0;
}

/** Resolves when `terminalId`'s output matches `pattern` (on each change, no polling). */
function outputMatching(
  terminals: NodeTerminals,
  terminalId: string,
  pattern: RegExp,
): Promise<RegExpExecArray> {
  return new Promise((resolve) => {
    const check = (): boolean => {
      const match = pattern.exec(terminals.lastOutput(terminalId)?.output ?? '');
      if (match) {
        resolve(match);
      }
      return match !== null;
    };
    if (!check()) {
      const subscription = terminals.onDidChange((id) => {
        if (id === terminalId && check()) {
          subscription.dispose();
        }
      });
    }
  });
}

describe('terminals: owned by their session and bounded', () => {
  let terminals: NodeTerminals;
  afterEach(async () => {
    await terminals.dispose();
  });
  const dir = useTempFolder('terminal-bounds-');

  it('kills the whole process tree on release, also a command that ignores SIGTERM', async () => {
    terminals = new NodeTerminals(dir.path, { killGraceMs: 300 });
    const id = await terminals.create({
      sessionId: 's1',
      command: 'trap "" TERM; echo "leader $$"; sleep 300 & echo "child $!"; wait',
    });
    const match = await outputMatching(terminals, id, /leader (\d+)\nchild (\d+)/);
    const pids = [Number(match[1]), Number(match[2])];
    assert.ok(
      pids.every((pid) => !gone(pid)),
      'both run before the release',
    );
    await terminals.release(id, 's1');
    assert.deepEqual(
      pids.filter((pid) => !gone(pid)),
      [],
      'every process of the terminal is gone',
    );
  });

  it('treats another session’s terminal as not found', async () => {
    terminals = new NodeTerminals(dir.path);
    const id = await terminals.create({ sessionId: 'mine', command: 'echo secret' });
    await terminals.waitForExit(id, 'mine');
    await assert.rejects(terminals.output(id, 'other'), /Unknown or released terminal/);
    await assert.rejects(terminals.waitForExit(id, 'other'), /Unknown or released terminal/);
    await assert.rejects(terminals.kill(id, 'other'), /Unknown or released terminal/);
    await assert.rejects(terminals.release(id, 'other'), /Unknown or released terminal/);
    assert.match((await terminals.output(id, 'mine')).output, /secret/);
  });

  it('caps the agent’s outputByteLimit and the number of running terminals per session', async () => {
    terminals = new NodeTerminals(dir.path, { maxOutputBytes: 1000, maxLivePerSession: 2 });
    const id = await terminals.create({
      sessionId: 's1',
      command: process.execPath,
      args: ['-e', 'process.stdout.write("x".repeat(5000))'],
      outputByteLimit: Number.MAX_SAFE_INTEGER,
    });
    await terminals.waitForExit(id);
    const { output, truncated } = await terminals.output(id, 's1');
    assert.equal(output.length, 1000);
    assert.equal(truncated, true);

    const sleepers = [
      await terminals.create({ sessionId: 's1', command: 'sleep 30' }),
      await terminals.create({ sessionId: 's1', command: 'sleep 30' }),
    ];
    await assert.rejects(
      terminals.create({ sessionId: 's1', command: 'sleep 30' }),
      /At most 2 terminals may run at once in a session/,
    );
    // Another session has its own allowance.
    const other = await terminals.create({ sessionId: 's2', command: 'true' });
    await terminals.waitForExit(other);
    await terminals.releaseSession('s1');
    assert.deepEqual(terminals.idsOf('s1'), []);
    await assert.rejects(terminals.output(sleepers[0] as string, 's1'), /Unknown or released terminal/);
    assert.deepEqual(terminals.idsOf('s2'), [other]);
  });

  it('keeps the window’s terminal output within one budget, dropping the oldest terminal’s first', async () => {
    terminals = new NodeTerminals(dir.path, { totalOutputBytes: 3000 });
    const print = (sessionId: string) =>
      terminals.create({
        sessionId,
        command: process.execPath,
        args: ['-e', 'process.stdout.write("y".repeat(2000))'],
      });
    const first = await print('s1');
    await terminals.waitForExit(first);
    const second = await print('s2');
    await terminals.waitForExit(second);
    assert.equal((await terminals.output(first, 's1')).output, '');
    assert.equal((await terminals.output(first, 's1')).truncated, true);
    assert.equal((await terminals.output(second, 's2')).output.length, 2000);
  });
});
