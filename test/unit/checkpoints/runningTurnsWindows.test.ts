import { strict as assert } from 'node:assert';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RunningTurns } from '../../../src/features/checkpoints/chat/runningTurns';

const OTHER = path.join(__dirname, 'support', 'otherWindowTurn.ts');

/** Another window (a real process) whose chat `title` runs a turn on `folder`; resolves once it runs. */
async function otherWindow(
  dir: string,
  folder: string,
  title: string,
): Promise<ChildProcessWithoutNullStreams> {
  const child = spawn(process.execPath, ['--import', 'tsx', OTHER, dir, folder, title], { stdio: 'pipe' });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (data: Buffer) => {
      out += data.toString();
      if (out.includes('running\n')) {
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`the other window exited (${code}) before its turn ran`)));
  });
  return child;
}

describe('running turns across windows: Undo in one window sees a turn running in another', function () {
  this.timeout(30_000);
  let root: string;
  let shared: string;
  let child: ChildProcessWithoutNullStreams | undefined;
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'acp-windows-'));
    shared = path.join(root, 'running-turns');
  });
  afterEach(() => {
    child?.kill('SIGKILL');
    child = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  it('names the other window’s chat while its turn runs on the folder, and forgets it when the turn ends', async () => {
    const here = new RunningTurns();
    here.shareIn(shared);
    const chat = {};
    child = await otherWindow(shared, '/work/project', 'Refactor the parser');
    const others = here.othersOn(chat, ['/work/project']);
    assert.deepEqual(
      others.map((turn) => turn.title()),
      ['Refactor the parser (in another window)'],
    );
    assert.deepEqual(here.othersOn(chat, ['/work/elsewhere']), [], 'another folder is not raced');
    child.stdin.end();
    await once(child, 'exit');
    assert.deepEqual(here.othersOn(chat, ['/work/project']), []);
    assert.deepEqual(readdirSync(shared), [], 'the ended turn left nothing behind');
  });

  it('a window that died mid-turn is not counted, and its leftover is removed', async () => {
    const here = new RunningTurns();
    here.shareIn(shared);
    child = await otherWindow(shared, '/work/project', 'Crashed chat');
    child.kill('SIGKILL');
    await once(child, 'exit');
    assert.equal(readdirSync(shared).length, 1, 'the dead window could not clean up');
    assert.deepEqual(here.othersOn({}, ['/work/project']), []);
    assert.deepEqual(readdirSync(shared), []);
  });

  it('this window’s own turns are known from memory, not read back from the shared folder', () => {
    const here = new RunningTurns();
    here.shareIn(shared);
    const mine = {};
    const theirs = {};
    const handle = here.start({
      chat: theirs,
      turnId: 't',
      title: () => 'Other chat',
      folders: ['/p'],
      since: 1,
    });
    assert.deepEqual(
      here.othersOn(mine, ['/p']).map((turn) => turn.title()),
      ['Other chat'],
      'listed once, by its live title',
    );
    assert.deepEqual(here.othersOn(theirs, ['/p']), [], 'a chat never races itself');
    handle.dispose();
    assert.deepEqual(readdirSync(shared), []);
  });
});
