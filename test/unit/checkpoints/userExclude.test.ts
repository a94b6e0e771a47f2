import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readUserExclude } from '../../../src/features/checkpoints/core/excludeFile';
import { readRegularFile } from '../../../src/features/checkpoints/core/fileContent';

/**
 * The workspace repository's own `info/exclude`, which checkpoints honour and whose text the proof at
 * Send compares: read at once in the common layout, and still found in every other one git has.
 */
describe("checkpoints: the workspace repository's info/exclude", function () {
  this.timeout(30_000);
  let root: string;
  const git = (cwd: string, ...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=U', '-c', 'user.email=u@example.com', ...args], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: root },
    });

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-user-exclude-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  /** A repository at `root/main` with one commit and `exclude` as its info/exclude. */
  function mainRepository(exclude: string): string {
    const main = path.join(root, 'main');
    fs.mkdirSync(main);
    git(main, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(main, '.git', 'info', 'exclude'), exclude);
    fs.writeFileSync(path.join(main, 'a.txt'), 'a\n');
    git(main, 'add', 'a.txt');
    git(main, 'commit', '-q', '-m', 'one');
    return main;
  }

  it('reads it from a folder whose .git is a directory', async () => {
    const main = mainRepository('secret/\n');
    assert.equal(await readUserExclude(main), 'secret/\n');
  });

  it("reads the main repository's from a linked worktree (.git a file, its git dir naming the common one)", async () => {
    const main = mainRepository('from-main/\n');
    const worktree = path.join(root, 'linked');
    git(main, 'worktree', 'add', '-q', worktree);
    assert.ok(fs.statSync(path.join(worktree, '.git')).isFile());
    assert.equal(await readUserExclude(worktree), 'from-main/\n');
  });

  it('follows commondir when a .git directory names one, and ignores the exclude file beside it then', async () => {
    const main = mainRepository('common/\n');
    const folder = path.join(root, 'folder');
    fs.mkdirSync(path.join(folder, '.git', 'info'), { recursive: true });
    fs.writeFileSync(path.join(folder, '.git', 'info', 'exclude'), 'local/\n');
    fs.writeFileSync(path.join(folder, '.git', 'commondir'), path.join(main, '.git'));
    assert.equal(await readUserExclude(folder), 'common/\n');
  });

  it('is empty with no repository, with no exclude file, and when the .git file names no git dir', async () => {
    const plain = path.join(root, 'plain');
    fs.mkdirSync(plain);
    assert.equal(await readUserExclude(plain), '');
    const main = mainRepository('');
    fs.rmSync(path.join(main, '.git', 'info', 'exclude'));
    assert.equal(await readUserExclude(main), '');
    fs.writeFileSync(path.join(plain, '.git'), 'not a gitdir line\n');
    assert.equal(await readUserExclude(plain), '');
  });
});

describe('checkpoints: a small file read whole', function () {
  let root: string;
  beforeEach(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-read-regular-'))));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('reads a file of exactly the bound, refuses one byte more, and reads an empty one', async () => {
    const file = path.join(root, 'f');
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, index) => index % 251));
    fs.writeFileSync(file, bytes);
    assert.deepEqual(await readRegularFile(file, 4096), bytes);
    await assert.rejects(readRegularFile(file, 4095), /larger than 4095 bytes/);
    fs.writeFileSync(file, '');
    assert.equal((await readRegularFile(file, 10)).length, 0);
  });

  it('reads to its end a file that reports no size, as /proc has', async () => {
    const text = (await readRegularFile('/proc/self/status', 64 * 1024)).toString('utf8');
    assert.match(text, /^Name:/m);
    assert.ok(text.length > 100, `${text.length} characters`);
    // Within its bound only, though it said no size: 100 bytes of a longer text are refused.
    await assert.rejects(readRegularFile('/proc/self/status', 100), /larger than 100 bytes/);
  });
});
