import { strict as assert } from 'node:assert';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WorktreeLocks } from '../../../src/features/worktrees/core/worktreeLocks';

const OTHER = path.join(__dirname, 'support', 'otherWindowLock.ts');

/** Another window's process trying to take the worktree's lock; resolves with what it printed. */
async function otherWindow(
  lockDir: string,
  worktree: string,
): Promise<{ child: ChildProcessWithoutNullStreams; said: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', OTHER, lockDir, worktree], { stdio: 'pipe' });
  const said = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (data: Buffer) => {
      out += data.toString();
      if (out.endsWith('\n')) {
        resolve(out.trim());
      }
    });
    child.once('exit', (code) => reject(new Error(`the other window exited (${code}) before it answered`)));
  });
  return { child, said };
}

describe('worktrees: two windows never both let an agent write one worktree', function () {
  this.timeout(60_000);
  let root: string;
  let children: ChildProcessWithoutNullStreams[] = [];
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'acp-worktree-locks-'));
  });
  afterEach(() => {
    children.forEach((child) => child.kill('SIGKILL'));
    children = [];
    rmSync(root, { recursive: true, force: true });
  });

  it('the second window finds it busy, named by the first one’s process, until that window closes', async () => {
    const lockDir = path.join(root, 'locks');
    const worktree = path.join(root, 'project.worktrees', 'fix');
    const first = await otherWindow(lockDir, worktree);
    children.push(first.child);
    assert.equal(first.said, 'held');
    const here = new WorktreeLocks(lockDir);
    const refused = await here.hold(worktree);
    assert.equal(refused.held, false);
    assert.equal(!refused.held && refused.owner?.pid, first.child.pid);
    const second = await otherWindow(lockDir, worktree);
    children.push(second.child);
    assert.equal(second.said, `busy ${first.child.pid}`);
    assert.equal(
      (await here.hold(path.join(root, 'project.worktrees', 'other'))).held,
      true,
      'another worktree is free',
    );
    first.child.stdin.end();
    await once(first.child, 'exit');
    assert.equal((await here.hold(worktree)).held, true, 'free once the window closed');
    here.dispose();
  });

  it('a window that crashed holding it does not keep it: its lock is stale', async () => {
    const lockDir = path.join(root, 'locks');
    const worktree = path.join(root, 'w');
    const crashed = await otherWindow(lockDir, worktree);
    crashed.child.kill('SIGKILL');
    await once(crashed.child, 'exit');
    const here = new WorktreeLocks(lockDir);
    assert.equal((await here.hold(worktree)).held, true);
    here.dispose();
  });

  it('many windows at once: exactly one holds it', async () => {
    const lockDir = path.join(root, 'locks');
    const worktree = path.join(root, 'race');
    const racers = await Promise.all(Array.from({ length: 4 }, () => otherWindow(lockDir, worktree)));
    children.push(...racers.map((racer) => racer.child));
    assert.equal(racers.filter((racer) => racer.said === 'held').length, 1);
  });
});
