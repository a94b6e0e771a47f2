import { strict as assert } from 'node:assert';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MAX_SHARED_TURN_FILES, RunningTurns } from '../../../src/features/checkpoints/chat/runningTurns';
import { ChangeReview } from '../../../src/features/checkpoints/chat/changeReview';
import { silentLogger } from '../../../src/core/ports';
import { NodeWorkspaceChanges } from '../support/nodeWorkspaceChanges';
import { oneStore } from '../support/oneStore';

const OTHER = path.join(__dirname, 'support', 'otherWindowTurn.ts');
const spawned: ChildProcessWithoutNullStreams[] = [];

/**
 * Another window (a real process) whose chat `title` runs a turn on `folder`; resolves once it says `word`
 * ("running": its turn's file is written). `fifo`: a FIFO waits where that file goes.
 */
async function otherWindow(
  dir: string,
  folder: string,
  title: string,
  { word = 'running', fifo = false }: { readonly word?: string; readonly fifo?: boolean } = {},
): Promise<ChildProcessWithoutNullStreams> {
  const args = ['--import', 'tsx', OTHER, dir, folder, title, ...(fifo ? ['fifo'] : [])];
  const child = spawn(process.execPath, args, { stdio: 'pipe' });
  spawned.push(child); // killed after the test, also when it never said the word
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (data: Buffer) => {
      out += data.toString();
      if (out.includes(`${word}\n`)) {
        resolve();
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`the other window exited (${code}) before it said ${word}`)),
    );
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
    spawned.splice(0).forEach((other) => other.kill('SIGKILL'));
    child = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  it('names the other window’s chat while its turn runs on the folder, and forgets it when the turn ends', async () => {
    const here = new RunningTurns();
    here.shareIn(shared);
    const chat = {};
    child = await otherWindow(shared, '/work/project', 'Refactor the parser');
    const others = await here.othersOn(chat, ['/work/project']);
    assert.deepEqual(
      others.map((turn) => turn.title()),
      ['Refactor the parser (in another window)'],
    );
    assert.deepEqual(await here.othersOn(chat, ['/work/elsewhere']), [], 'another folder is not raced');
    child.stdin.end();
    await once(child, 'exit');
    assert.deepEqual(await here.othersOn(chat, ['/work/project']), []);
    assert.deepEqual(readdirSync(shared), [], 'the ended turn left nothing behind');
  });

  it('a window that died mid-turn is not counted, and its leftover is removed', async () => {
    const here = new RunningTurns();
    here.shareIn(shared);
    child = await otherWindow(shared, '/work/project', 'Crashed chat');
    child.kill('SIGKILL');
    await once(child, 'exit');
    assert.equal(readdirSync(shared).length, 1, 'the dead window could not clean up');
    assert.deepEqual(await here.othersOn({}, ['/work/project']), []);
    assert.deepEqual(readdirSync(shared), []);
  });

  it('this window’s own turns are known from memory, not read back from the shared folder', async () => {
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
      (await here.othersOn(mine, ['/p'])).map((turn) => turn.title()),
      ['Other chat'],
      'listed once, by its live title',
    );
    assert.deepEqual(await here.othersOn(theirs, ['/p']), [], 'a chat never races itself');
    handle.dispose();
    await here.settled();
    assert.deepEqual(readdirSync(shared), []);
  });

  it('the change review is idle only once its turns’ files are written and removed (the storage may go then)', async () => {
    const here = new RunningTurns();
    here.shareIn(shared);
    // The registry as the review sees it, telling whether it was waited for.
    let waited = false;
    const running = {
      follow: here.follow.bind(here),
      othersOn: here.othersOn.bind(here),
      settled: () => here.settled().then(() => void (waited = true)),
    };
    const workspace = { ...oneStore(() => Promise.reject(new Error('no store here'))), running };
    const review = new ChangeReview(workspace, new NodeWorkspaceChanges(root), silentLogger);
    // A turn that ends at once: its file is still being written when its removal is asked for.
    here.start({ chat: {}, turnId: 't1', title: () => 'Short', folders: [root], since: 0 }).dispose();
    await review.idle();
    assert.equal(waited, true, 'idle waited for the files');
    assert.deepEqual(readdirSync(shared), []);
  });

  it('a FIFO where a turn’s file goes holds no window: the turn starts at once, just unshared', async () => {
    // The other window makes the FIFO where its first turn's file goes, starts that turn, then reads the
    // folder back. Opening the FIFO to write would wait for a reader for ever, to read for a writer.
    child = await otherWindow(shared, '/work/project', 'Held chat', { word: 'others 0', fifo: true });
    assert.equal(readdirSync(shared).length, 1, 'the FIFO is left where it is');
  });

  it('reads at most MAX_SHARED_TURN_FILES files of the shared folder in one look', async () => {
    // Files as other live windows would write them (the parent process runs): a folder flooded with them
    // is read only so far, never all at once.
    mkdirSync(shared, { recursive: true });
    for (let i = 0; i < MAX_SHARED_TURN_FILES + 50; i++) {
      const turn = { pid: process.ppid, title: `Chat ${i}`, folders: ['/p'], since: i };
      writeFileSync(path.join(shared, `${process.ppid}-${i}.json`), JSON.stringify(turn));
    }
    const here = new RunningTurns();
    here.shareIn(shared);
    assert.equal((await here.othersOn({}, ['/p'])).length, MAX_SHARED_TURN_FILES);
  });
});
