import { strict as assert } from 'node:assert';
import type { FileChangeStat } from '../../../src/features/checkpoints/core/types';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { CheckpointNotFoundError } from '../../../src/features/checkpoints/core/errors';
import { folderKey } from '../../../src/features/checkpoints/core/shadowGit';
import { silentLogger } from '../../../src/core/ports';
import { fingerprint, summary, userGit, useShadowStore, write } from './support/shadowStore';

describe('checkpoints: shadow git store and the workspace around it', function () {
  this.timeout(60_000);
  const fixture = useShadowStore();
  const openStore = fixture.openStore.bind(fixture);

  it("never touches the fixture.workspace's own git repository: HEAD, index, status, stash, config, hooks", async () => {
    userGit(fixture.workspace, 'init', '--quiet');
    write(fixture.workspace, { 'tracked.txt': 'v1\n', 'other.txt': 'o\n', '.gitignore': 'ignored.txt\n' });
    userGit(fixture.workspace, 'add', '.');
    userGit(fixture.workspace, 'commit', '--quiet', '-m', 'first');
    write(fixture.workspace, { 'tracked.txt': 'stashed\n' });
    userGit(fixture.workspace, 'stash', '--quiet');
    write(fixture.workspace, { 'tracked.txt': 'staged\n', 'untracked.txt': 'u\n' });
    userGit(fixture.workspace, 'add', 'tracked.txt');
    write(fixture.workspace, { 'other.txt': 'unstaged\n' });
    const marker = path.join(fixture.root, 'hook-ran');
    for (const hook of [
      'pre-commit',
      'post-commit',
      'post-index-change',
      'reference-transaction',
      'post-checkout',
    ]) {
      writeFileSync(
        path.join(fixture.workspace, '.git', 'hooks', hook),
        `#!/bin/sh\necho ${hook} >> '${marker}'\n`,
      );
      chmodSync(path.join(fixture.workspace, '.git', 'hooks', hook), 0o755);
    }
    const gitBefore = fingerprint(path.join(fixture.workspace, '.git'));
    const statusBefore = userGit(fixture.workspace, 'status', '--porcelain');
    const stashBefore = userGit(fixture.workspace, 'stash', 'list');
    const headBefore = userGit(fixture.workspace, 'rev-parse', 'HEAD');
    const indexBefore = userGit(fixture.workspace, 'ls-files', '-s');

    // As inside a git hook of the user's: variables that point at their repository must not reach ours.
    const userRepositoryEnv = {
      GIT_DIR: path.join(fixture.workspace, '.git'),
      GIT_INDEX_FILE: path.join(fixture.workspace, '.git', 'index'),
      GIT_OBJECT_DIRECTORY: path.join(fixture.workspace, '.git', 'objects'),
      GIT_WORK_TREE: fixture.workspace,
    };
    Object.assign(process.env, userRepositoryEnv);
    let changes: FileChangeStat[];
    try {
      const { store, checkpoint: first } = await fixture.checkpointed();
      for (let i = 0; i < 12; i++) {
        write(fixture.workspace, { [`turn${i}.txt`]: `${i}\n`, 'tracked.txt': `turn ${i}\n` });
        const checkpoint = await store.create();
        await store.changes(checkpoint);
        await store.read(checkpoint, path.join(fixture.workspace, 'tracked.txt'));
      }
      changes = await store.changes(first);
      await store.idle();
    } finally {
      for (const key of Object.keys(userRepositoryEnv)) {
        delete process.env[key];
      }
    }
    // Put the work tree back as the user left it, then compare the repository.
    for (let i = 0; i < 12; i++) {
      rmSync(path.join(fixture.workspace, `turn${i}.txt`));
    }
    write(fixture.workspace, { 'tracked.txt': 'staged\n' });

    assert.ok(
      !changes.some((change) => change.path.includes(`${path.sep}.git${path.sep}`)),
      'no .git file listed',
    );
    assert.equal(existsSync(marker), false, 'no hook of the user ran');
    assert.deepEqual(
      fingerprint(path.join(fixture.workspace, '.git')),
      gitBefore,
      '.git is byte-identical (index mtime too)',
    );
    assert.equal(userGit(fixture.workspace, 'rev-parse', 'HEAD'), headBefore);
    assert.equal(userGit(fixture.workspace, 'ls-files', '-s'), indexBefore);
    assert.equal(userGit(fixture.workspace, 'status', '--porcelain'), statusBefore);
    assert.equal(userGit(fixture.workspace, 'stash', 'list'), stashBefore);
    assert.match(statusBefore, /^M {2}tracked\.txt$/m);
    assert.match(stashBefore, /stash@\{0\}/);
  });

  it('does not fail on a nested git repository (with no commit yet) and leaves it out', async () => {
    write(fixture.workspace, { 'top.txt': 'top\n' });
    mkdirSync(path.join(fixture.workspace, 'vendor', 'lib'), { recursive: true });
    userGit(path.join(fixture.workspace, 'vendor', 'lib'), 'init', '--quiet');
    write(fixture.workspace, { 'vendor/lib/inner.txt': 'inner\n' });
    const { store, checkpoint } = await fixture.checkpointed();
    write(fixture.workspace, { 'vendor/lib/inner.txt': 'changed\n', 'top.txt': 'changed\n' });

    assert.deepEqual(summary(await store.changes(checkpoint), fixture.workspace), ['modified top.txt +1 -1']);
    rmSync(path.join(fixture.workspace, 'vendor', 'lib', '.git'), { recursive: true });
    assert.deepEqual(
      summary(await store.changes(checkpoint), fixture.workspace),
      ['modified top.txt +1 -1'],
      'its files were there before: not "created" once it is no longer a repository',
    );
  });

  it('snapshots several fixture.workspace folders, each in its own shadow repository', async () => {
    const second = path.join(fixture.root, 'second');
    write(fixture.workspace, { 'one.txt': 'a\n' });
    write(second, { 'two.txt': 'b\n' });
    const { store, checkpoint } = await fixture.checkpointed({ folders: [fixture.workspace, second] });
    write(fixture.workspace, { 'one.txt': 'a\nA\n' });
    rmSync(path.join(second, 'two.txt'));

    const changes = await store.changes(checkpoint);

    assert.deepEqual(
      changes.map((change) => [change.folder, path.basename(change.path), change.kind]),
      [
        [second, 'two.txt', 'deleted'],
        [fixture.workspace, 'one.txt', 'modified'],
      ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
    );
    assert.deepEqual(
      await store.read(checkpoint, path.join(second, 'two.txt')),
      new Uint8Array(Buffer.from('b\n')),
    );
    assert.ok(existsSync(path.join(fixture.storageDir, 'checkpoints', folderKey(fixture.workspace), 'HEAD')));
    assert.ok(existsSync(path.join(fixture.storageDir, 'checkpoints', folderKey(second), 'HEAD')));
  });

  it('a fixture.workspace folder inside another: its files are listed once, under the inner folder', async () => {
    const inner = path.join(fixture.workspace, 'packages', 'inner');
    write(fixture.workspace, { 'top.txt': 'a\n', 'packages/inner/lib.txt': 'b\n' });
    const { store, checkpoint } = await fixture.checkpointed({ folders: [fixture.workspace, inner] });
    write(fixture.workspace, { 'top.txt': 'A\n', 'packages/inner/lib.txt': 'B\n' });

    const changes = await store.changes(checkpoint);

    assert.deepEqual(
      changes.map((change) => [
        path.relative(fixture.workspace, change.path),
        path.relative(fixture.workspace, change.folder),
      ]),
      [
        [path.join('packages', 'inner', 'lib.txt'), path.join('packages', 'inner')],
        ['top.txt', ''],
      ],
    );
    assert.deepEqual(
      await store.read(checkpoint, path.join(inner, 'lib.txt')),
      new Uint8Array(Buffer.from('b\n')),
    );
  });

  it('two chats with overlapping turns: each list holds every file changed in its own window', async () => {
    write(fixture.workspace, { 'shared.txt': 'start\n' });
    const { store, checkpoint: chatA } = await fixture.checkpointed();
    write(fixture.workspace, { 'from-a.txt': 'a\n' });
    const chatB = await store.create();
    write(fixture.workspace, { 'from-b.txt': 'b\n', 'shared.txt': 'start\nb\n' });

    // Both turns end at once, while a third chat starts a turn: the calls are queued, none is lost.
    const [changesA, changesB, chatC] = await Promise.all([
      store.changes(chatA),
      store.changes(chatB),
      store.create(),
    ]);

    assert.deepEqual(summary(changesA, fixture.workspace), [
      'created from-a.txt +1 -0',
      'created from-b.txt +1 -0',
      'modified shared.txt +1 -0',
    ]);
    assert.deepEqual(summary(changesB, fixture.workspace), [
      'created from-b.txt +1 -0',
      'modified shared.txt +1 -0',
    ]);
    assert.deepEqual(await store.changes(chatC), []);
  });

  it('many checkpoints at once all succeed and each records the folder', async () => {
    write(fixture.workspace, { 'a.txt': 'a\n' });
    const store = await openStore();
    const ids = await Promise.all(Array.from({ length: 8 }, () => store.create()));
    write(fixture.workspace, { 'a.txt': 'b\n' });
    for (const id of ids) {
      assert.deepEqual(summary(await store.changes(id), fixture.workspace), ['modified a.txt +1 -1']);
    }
  });

  it('recovers from a corrupt shadow index and a lock left by a crashed git', async () => {
    write(fixture.workspace, { 'a.txt': 'a\n' });
    const warnings: string[] = [];
    const store = await openStore({ logger: { ...silentLogger, warn: (message) => warnings.push(message) } });
    const first = await store.create();
    // The store's own index (one per store object: see ownIndex.ts).
    const indexDir = path.join(fixture.storageDir, 'checkpoints', folderKey(fixture.workspace), 'acp-index');
    const [own] = readdirSync(indexDir);
    const index = path.join(indexDir, own as string);
    writeFileSync(index, 'not an index');
    write(fixture.workspace, { 'a.txt': 'b\n' });
    assert.deepEqual(summary(await store.changes(first), fixture.workspace), ['modified a.txt +1 -1']);

    writeFileSync(`${index}.lock`, '');
    write(fixture.workspace, { 'b.txt': 'new\n' });
    const second = await store.create();
    assert.deepEqual(summary(await store.changes(first, second), fixture.workspace), [
      'modified a.txt +1 -1',
      'created b.txt +1 -0',
    ]);
    assert.equal(warnings.filter((warning) => warning.includes('Rebuilding the checkpoint index')).length, 2);
  });

  it('keeps only the newest checkpoints per folder and rejects ids it does not know', async () => {
    write(fixture.workspace, { 'a.txt': '0\n' });
    const store = await openStore();
    for (let i = 1; i <= 4; i++) {
      write(fixture.workspace, { 'a.txt': `${i}\n` });
      await store.create();
    }
    store.dispose();
    const reopened = await openStore({ keepCheckpoints: 2 });
    await reopened.idle(); // pruning runs in the background after opening
    const gitDir = path.join(fixture.storageDir, 'checkpoints', folderKey(fixture.workspace));
    const refs = readdirSync(path.join(gitDir, 'refs', 'checkpoints'));
    const packed = existsSync(path.join(gitDir, 'packed-refs'))
      ? readFileSync(path.join(gitDir, 'packed-refs'), 'utf8')
      : '';
    const refCount = refs.length + (packed.match(/refs\/checkpoints\//g) ?? []).length;
    assert.equal(refCount, 2);

    await assert.rejects(() => reopened.changes('nonsense'), CheckpointNotFoundError);
    const unknownCommit = `git1:${folderKey(fixture.workspace)}.${'1'.repeat(40)}`;
    await assert.rejects(() => reopened.changes(unknownCommit), CheckpointNotFoundError);
    await assert.rejects(
      () => reopened.read(unknownCommit, path.join(fixture.workspace, 'a.txt')),
      CheckpointNotFoundError,
    );
  });
});
