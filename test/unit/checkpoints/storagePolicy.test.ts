import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  refusedFolder,
  storageOutside,
  storedBytes,
} from '../../../src/features/checkpoints/core/storagePolicy';

describe('workspace storage policy: what may be checkpointed and where its storage may live', () => {
  let root: string;

  beforeEach(() => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'acp-policy-')));
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('refuses the home folder, its Desktop, Documents and Downloads and a drive root; a project is fine', () => {
    const home = path.join(root, 'home', 'ada');
    assert.equal(refusedFolder(home, home), 'your home folder');
    assert.equal(refusedFolder(path.join(home, 'Desktop'), home), 'your Desktop folder');
    assert.equal(refusedFolder(path.join(home, 'Documents'), home), 'your Documents folder');
    assert.equal(refusedFolder(path.join(home, 'Downloads'), home), 'your Downloads folder');
    assert.equal(refusedFolder(path.parse(root).root, home), 'the root of a drive');
    assert.equal(refusedFolder(path.join(home, 'Documents', 'project'), home), undefined);
    assert.equal(refusedFolder(path.join(home, 'code'), home), undefined);
    assert.equal(refusedFolder(path.join(root, 'home', 'ada-projects'), home), undefined);
  });

  it('refuses every folder that holds the home folder, or the homes of a machine, as it refuses home itself', () => {
    const home = path.join(root, 'home', 'ada');
    assert.equal(refusedFolder(path.join(root, 'home'), home), 'a folder that holds your home folder');
    assert.equal(refusedFolder(root, home), 'a folder that holds your home folder');
    // root's home is /root: /home still holds every other user's, and /Users on a Mac likewise.
    const rootsHome = path.join(root, 'root');
    for (const homes of ['/home', '/Users', '/var/home', '/var']) {
      assert.equal(refusedFolder(homes, rootsHome), "a folder that holds users' home folders", homes);
    }
    assert.equal(refusedFolder('/home/ada/project', rootsHome), undefined);
    assert.equal(refusedFolder('/var/lib/project', rootsHome), undefined);
  });

  it('keeps the workspace storage when it lies outside every folder', () => {
    const choice = storageOutside([path.join(root, 'ws'), path.join(root, 'global')], [path.join(root, 'p')]);
    assert.deepEqual(choice, { dir: path.join(root, 'ws'), moved: false });
  });

  it('moves the storage outside when it lies inside a workspace folder (a home folder over Remote-SSH)', () => {
    const folder = path.join(root, 'remote-home');
    const inside = path.join(folder, '.vscode-server', 'data', 'User', 'workspaceStorage', 'abc');
    const global = path.join(root, 'global');
    const choice = storageOutside([inside, global], [folder]);
    assert.ok('dir' in choice && choice.moved, JSON.stringify(choice));
    assert.ok(choice.dir.startsWith(global + path.sep), choice.dir);
    // Each workspace its own: another workspace storage gets another folder.
    const other = storageOutside([`${inside}-2`, global], [folder]);
    assert.ok('dir' in other && other.dir !== choice.dir);
    // A workspace folder inside the storage is as bad as the storage inside a folder.
    const around = storageOutside([path.join(root, 'ws'), global], [path.join(root, 'ws', 'project')]);
    assert.ok(
      'dir' in around && around.moved && around.dir.startsWith(global + path.sep),
      JSON.stringify(around),
    );
  });

  it('says there is no storage when every candidate lies inside a workspace folder', () => {
    const choice = storageOutside(
      [path.join(root, 'a', 'ws'), path.join(root, 'a', 'global')],
      [path.join(root, 'a')],
    );
    assert.ok('problem' in choice);
    assert.match(choice.problem, /never stored inside/);
  });

  it('counts stored bytes without following links, and stops once past the limit', async () => {
    const store = path.join(root, 'store');
    mkdirSync(path.join(store, 'objects', 'ab'), { recursive: true });
    writeFileSync(path.join(store, 'objects', 'ab', 'one'), Buffer.alloc(1000));
    writeFileSync(path.join(store, 'two'), Buffer.alloc(500));
    const big = path.join(root, 'big');
    writeFileSync(big, Buffer.alloc(100_000));
    symlinkSync(big, path.join(store, 'link'));
    const total = await storedBytes(store, Number.MAX_SAFE_INTEGER);
    assert.ok(total >= 1500 && total < 1500 + 4096, `counted ${total}`);
    assert.ok((await storedBytes(store, 100)) > 100);
    assert.equal(await storedBytes(path.join(root, 'missing'), 100), 0);
  });
});
