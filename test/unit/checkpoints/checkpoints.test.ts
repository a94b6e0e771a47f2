import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckpointNotFoundError } from '../../../src/features/checkpoints/core/errors';
import {
  ShadowGitCheckpointStore,
  folderKey,
  type ShadowGitStoreOptions,
} from '../../../src/features/checkpoints/core/shadowGit';
import type { FileChangeStat } from '../../../src/features/checkpoints/core/types';
import { silentLogger } from '../../../src/core/ports';

/** Writes files (relative path → content) under `root`, creating folders. */
function write(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** The changes as `kind rel +added -removed [binary]` lines, relative to `root`, for readable asserts. */
function summary(changes: readonly FileChangeStat[], root: string): string[] {
  return changes.map((change) => {
    const rel = path.relative(root, change.path).split(path.sep).join('/');
    return `${change.kind} ${rel} +${change.added} -${change.removed}${change.binary ? ' binary' : ''}`;
  });
}

/** Runs the user's git in `cwd` the way a user would, never taking optional locks (so reading changes nothing). */
function userGit(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_OPTIONAL_LOCKS: '0',
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: path.join(cwd, '..', 'home'),
      GIT_AUTHOR_NAME: 'User',
      GIT_AUTHOR_EMAIL: 'user@example.com',
      GIT_COMMITTER_NAME: 'User',
      GIT_COMMITTER_EMAIL: 'user@example.com',
    },
  });
}

/** Every file under `dir` with its bytes' hash, mode and mtime: equal only if nothing was touched. */
function fingerprint(dir: string): Record<string, string> {
  const result: Record<string, string> = {};
  const walk = (current: string): void => {
    for (const name of readdirSync(current).sort()) {
      const file = path.join(current, name);
      const info = lstatSync(file);
      const rel = path.relative(dir, file);
      if (info.isDirectory()) {
        result[`${rel}/`] = `dir ${info.mode}`;
        walk(file);
      } else {
        const hash = createHash('sha256').update(readFileSync(file)).digest('hex');
        result[rel] = `${hash} ${info.mode} ${info.mtimeMs} ${info.size}`;
      }
    }
  };
  walk(dir);
  return result;
}

describe('checkpoints: shadow git store', function () {
  this.timeout(60_000);
  let root: string;
  let workspace: string;
  let storageDir: string;
  const stores: ShadowGitCheckpointStore[] = [];

  async function openStore(options: Partial<ShadowGitStoreOptions> = {}): Promise<ShadowGitCheckpointStore> {
    const store = await ShadowGitCheckpointStore.open({
      folders: [workspace],
      storageDir,
      logger: silentLogger,
      ...options,
    });
    stores.push(store);
    return store;
  }

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'acp-checkpoints-'));
    workspace = path.join(root, 'workspace');
    storageDir = path.join(root, 'storage');
    mkdirSync(workspace);
    mkdirSync(path.join(root, 'home'));
  });

  afterEach(async () => {
    for (const store of stores.splice(0)) {
      await store.idle();
      store.dispose();
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('lists created, modified and deleted files with their line counts', async () => {
    write(workspace, { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'gone\nsoon\n', 'src/keep.ts': 'same\n' });
    const store = await openStore();
    const before = await store.create();
    write(workspace, { 'a.txt': 'one\nTWO\nthree\nfour\n', 'src/new.ts': 'x\ny\n' });
    rmSync(path.join(workspace, 'b.txt'));

    const changes = await store.changes(before);

    assert.deepEqual(summary(changes, workspace), [
      'modified a.txt +2 -1',
      'deleted b.txt +0 -2',
      'created src/new.ts +2 -0',
    ]);
    assert.ok(changes.every((change) => change.folder === workspace));
    assert.equal(changes[2]?.path, path.join(workspace, 'src', 'new.ts'));
  });

  it('answers a checkpoint of an unchanged folder with the newest one, and a new one after a change', async () => {
    write(workspace, { 'a.txt': 'a\n' });
    const store = await openStore();
    const first = await store.create();
    assert.equal(await store.create(), first);
    write(workspace, { 'a.txt': 'b\n' });
    const second = await store.create();
    assert.notEqual(second, first);
    write(workspace, { 'a.txt': 'a\n' });
    // The first one's content again: a commit of its own, or the very same one within the same second.
    const third = await store.create();
    assert.deepEqual(summary(await store.changes(second, third), workspace), ['modified a.txt +1 -1']);
  });

  it('shows a rename as a deletion plus a creation', async () => {
    write(workspace, { 'old/name.txt': 'content\n' });
    const store = await openStore();
    const before = await store.create();
    mkdirSync(path.join(workspace, 'new'));
    renameSync(path.join(workspace, 'old', 'name.txt'), path.join(workspace, 'new', 'name.txt'));

    assert.deepEqual(summary(await store.changes(before), workspace), [
      'created new/name.txt +1 -0',
      'deleted old/name.txt +0 -1',
    ]);
  });

  it('reads back the exact bytes: CRLF, no final newline, non-UTF-8, despite text=auto attributes', async () => {
    const crlf = Buffer.from('line one\r\nline two\r\n');
    const noNewline = Buffer.from('no newline at the end');
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0xff, 0xfe, 0x80, 0x0a]);
    write(workspace, {
      '.gitattributes': '* text=auto eol=lf\n*.txt ident\n',
      'crlf.txt': crlf,
      'plain.txt': noNewline,
      'latin1.txt': latin1,
    });
    const store = await openStore();
    const checkpoint = await store.create();
    write(workspace, {
      'crlf.txt': 'changed\n',
      'plain.txt': 'changed\n',
      'latin1.txt': 'changed\n',
      'later.txt': 'x',
    });
    rmSync(path.join(workspace, '.gitattributes'));

    assert.deepEqual(await store.read(checkpoint, path.join(workspace, 'crlf.txt')), new Uint8Array(crlf));
    assert.deepEqual(
      await store.read(checkpoint, path.join(workspace, 'plain.txt')),
      new Uint8Array(noNewline),
    );
    assert.deepEqual(
      await store.read(checkpoint, path.join(workspace, 'latin1.txt')),
      new Uint8Array(latin1),
    );
    assert.equal(await store.read(checkpoint, path.join(workspace, 'later.txt')), undefined, 'created later');
    assert.equal(
      await store.read(checkpoint, path.join(root, 'outside.txt')),
      undefined,
      'outside the folders',
    );
    const crlfChange = (await store.changes(checkpoint)).find((change) => change.path.endsWith('crlf.txt'));
    assert.deepEqual([crlfChange?.added, crlfChange?.removed], [1, 2], 'CRLF lines were kept as they were');
  });

  it('compares two checkpoints, and ids still work after the store is reopened', async () => {
    write(workspace, { 'a.txt': '1\n' });
    const store = await openStore();
    const first = await store.create();
    write(workspace, { 'a.txt': '1\n2\n' });
    const second = await store.create();
    write(workspace, { 'b.txt': 'later\n' });
    store.dispose();

    const reopened = await openStore();
    assert.deepEqual(summary(await reopened.changes(first, second), workspace), ['modified a.txt +1 -0']);
    assert.deepEqual(summary(await reopened.changes(second), workspace), ['created b.txt +1 -0']);
    assert.deepEqual(
      await reopened.read(first, path.join(workspace, 'a.txt')),
      new Uint8Array(Buffer.from('1\n')),
    );
    await assert.rejects(() => store.create(), /closed/);
  });

  it("honours .gitignore files (nested too) and the workspace repository's info/exclude", async () => {
    userGit(workspace, 'init', '--quiet');
    write(workspace, {
      '.gitignore': '*.log\nbuild/\n',
      'sub/.gitignore': 'secret.txt\n',
      '.git/info/exclude': 'local-only/\n',
      'app.log': 'a\n',
      'build/out.js': 'b\n',
      'sub/secret.txt': 'c\n',
      'sub/visible.txt': 'd\n',
      'local-only/notes.md': 'e\n',
    });
    const store = await openStore();
    const checkpoint = await store.create();
    write(workspace, {
      'app.log': 'changed\n',
      'build/out.js': 'changed\n',
      'sub/secret.txt': 'changed\n',
      'local-only/notes.md': 'changed\n',
      'local-only/more.md': 'new\n',
      'sub/visible.txt': 'changed\n',
    });

    assert.deepEqual(summary(await store.changes(checkpoint), workspace), ['modified sub/visible.txt +1 -1']);
    assert.equal(await store.read(checkpoint, path.join(workspace, 'sub', 'secret.txt')), undefined);
  });

  it('skips huge files and large binary files, keeps small binary files', async () => {
    const bounds = { maxFileBytes: 64 * 1024, maxBinaryBytes: 16 * 1024 };
    const binary = (size: number, fill: number): Buffer => Buffer.alloc(size, fill).fill(0, 10, 11);
    write(workspace, {
      'huge.txt': 'x'.repeat(100 * 1024),
      'big.bin': binary(32 * 1024, 1),
      'large-text.txt': 'y\n'.repeat(12 * 1024),
      'small.bin': binary(1024, 2),
      'grows.txt': 'small\n',
    });
    const store = await openStore(bounds);
    const checkpoint = await store.create();
    write(workspace, {
      'huge.txt': 'z'.repeat(100 * 1024),
      'big.bin': binary(32 * 1024, 3),
      'large-text.txt': 'y\n'.repeat(12 * 1024 + 1),
      'small.bin': binary(1024, 4),
      'grows.txt': 'g'.repeat(100 * 1024),
    });

    assert.deepEqual(summary(await store.changes(checkpoint), workspace), [
      'modified large-text.txt +1 -0',
      'modified small.bin +0 -0 binary',
    ]);
    assert.equal(await store.read(checkpoint, path.join(workspace, 'huge.txt')), undefined);
    assert.equal(await store.read(checkpoint, path.join(workspace, 'big.bin')), undefined);
    assert.deepEqual(
      await store.read(checkpoint, path.join(workspace, 'grows.txt')),
      new Uint8Array(Buffer.from('small\n')),
      'a file that grew past the bound keeps its last snapshot',
    );

    write(workspace, { 'huge.txt': 'small again\n' });
    assert.ok(
      !summary(await store.changes(checkpoint), workspace).some((line) => line.includes('huge.txt')),
      'not "created": it was there, only too large to keep',
    );
    const later = await store.create();
    assert.deepEqual(
      await store.read(later, path.join(workspace, 'huge.txt')),
      new Uint8Array(Buffer.from('small again\n')),
    );
  });

  it('a skipped file with wildcards in its name excludes only itself; odd names are listed as they are', async () => {
    const huge = 'x'.repeat(70 * 1024);
    write(workspace, {
      'assets/big [1] *.txt': huge,
      '#hash !bang.txt': huge,
      'assets/big 1 a.txt': 'small\n',
      'assets/big [1] b.txt': 'small\n',
      'café/ünïcödé.txt': 'small\n',
    });
    const store = await openStore({ maxFileBytes: 64 * 1024, maxBinaryBytes: 16 * 1024 });
    const checkpoint = await store.create();
    write(workspace, {
      'assets/big [1] *.txt': `${huge}more`,
      '#hash !bang.txt': `${huge}more`,
      'assets/big 1 a.txt': 'changed\n',
      'assets/big [1] b.txt': 'changed\n',
      'café/ünïcödé.txt': 'changed\n',
    });

    assert.deepEqual(summary(await store.changes(checkpoint), workspace), [
      'modified assets/big 1 a.txt +1 -1',
      'modified assets/big [1] b.txt +1 -1',
      'modified café/ünïcödé.txt +1 -1',
    ]);
  });

  it('lists and reads back files whose names hold a newline, a CR and quotes', async () => {
    const odd = ['new\nline.txt', 'carriage\rreturn.txt', 'say "hi" \'there\'.txt'];
    write(workspace, Object.fromEntries(odd.map((name, i) => [name, `before ${i}\n`])));
    const store = await openStore();
    const checkpoint = await store.create();
    write(workspace, Object.fromEntries(odd.map((name) => [name, 'after\n'])));

    assert.deepEqual(
      summary(await store.changes(checkpoint), workspace).sort(),
      odd.map((name) => `modified ${name} +1 -1`).sort(),
    );
    for (const [i, name] of odd.entries()) {
      const bytes = await store.read(checkpoint, path.join(workspace, name));
      assert.equal(Buffer.from(bytes ?? []).toString('utf8'), `before ${i}\n`, JSON.stringify(name));
    }
    assert.equal(await store.read(checkpoint, path.join(workspace, 'no\nsuch.txt')), undefined);
  });

  it("takes checkpoints when a FIFO stands at the workspace repository's info/exclude (read without blocking)", async () => {
    userGit(workspace, 'init', '--quiet');
    rmSync(path.join(workspace, '.git', 'info', 'exclude'), { force: true });
    mkdirSync(path.join(workspace, '.git', 'info'), { recursive: true });
    execFileSync('mkfifo', [path.join(workspace, '.git', 'info', 'exclude')]);
    write(workspace, { 'a.txt': 'a\n' });
    const store = await openStore();
    const checkpoint = await store.create();
    write(workspace, { 'a.txt': 'b\n' });
    assert.deepEqual(summary(await store.changes(checkpoint), workspace), ['modified a.txt +1 -1']);
  });

  it('leaves symbolic links out (restoring a link as a file would be wrong)', async () => {
    write(workspace, { 'target.txt': 'target\n' });
    symlinkSync('target.txt', path.join(workspace, 'link.txt'));
    const store = await openStore();
    const checkpoint = await store.create();
    rmSync(path.join(workspace, 'link.txt'));
    symlinkSync('elsewhere.txt', path.join(workspace, 'link.txt'));
    write(workspace, { 'target.txt': 'changed\n' });

    assert.deepEqual(summary(await store.changes(checkpoint), workspace), ['modified target.txt +1 -1']);
    assert.equal(await store.read(checkpoint, path.join(workspace, 'link.txt')), undefined);
    rmSync(path.join(workspace, 'link.txt'));
    write(workspace, { 'link.txt': 'now a file\n' });
    assert.deepEqual(
      summary(await store.changes(checkpoint), workspace),
      ['modified target.txt +1 -1'],
      'a link replaced by a file is not "created": Undo would delete it and the link would be lost',
    );
  });

  it('a file deleted and recreated: unchanged when the bytes are the same, modified when not', async () => {
    write(workspace, { 'file.txt': 'original\n' });
    const store = await openStore();
    const first = await store.create();
    rmSync(path.join(workspace, 'file.txt'));
    const whileDeleted = await store.create();
    write(workspace, { 'file.txt': 'original\n' });

    assert.deepEqual(summary(await store.changes(first), workspace), []);
    assert.deepEqual(summary(await store.changes(whileDeleted), workspace), ['created file.txt +1 -0']);
    assert.deepEqual(summary(await store.changes(first, whileDeleted), workspace), [
      'deleted file.txt +0 -1',
    ]);

    write(workspace, { 'file.txt': 'recreated differently\n' });
    assert.deepEqual(summary(await store.changes(first), workspace), ['modified file.txt +1 -1']);
  });

  it("never touches the workspace's own git repository: HEAD, index, status, stash, config, hooks", async () => {
    userGit(workspace, 'init', '--quiet');
    write(workspace, { 'tracked.txt': 'v1\n', 'other.txt': 'o\n', '.gitignore': 'ignored.txt\n' });
    userGit(workspace, 'add', '.');
    userGit(workspace, 'commit', '--quiet', '-m', 'first');
    write(workspace, { 'tracked.txt': 'stashed\n' });
    userGit(workspace, 'stash', '--quiet');
    write(workspace, { 'tracked.txt': 'staged\n', 'untracked.txt': 'u\n' });
    userGit(workspace, 'add', 'tracked.txt');
    write(workspace, { 'other.txt': 'unstaged\n' });
    const marker = path.join(root, 'hook-ran');
    for (const hook of [
      'pre-commit',
      'post-commit',
      'post-index-change',
      'reference-transaction',
      'post-checkout',
    ]) {
      writeFileSync(path.join(workspace, '.git', 'hooks', hook), `#!/bin/sh\necho ${hook} >> '${marker}'\n`);
      chmodSync(path.join(workspace, '.git', 'hooks', hook), 0o755);
    }
    const gitBefore = fingerprint(path.join(workspace, '.git'));
    const statusBefore = userGit(workspace, 'status', '--porcelain');
    const stashBefore = userGit(workspace, 'stash', 'list');
    const headBefore = userGit(workspace, 'rev-parse', 'HEAD');
    const indexBefore = userGit(workspace, 'ls-files', '-s');

    // As inside a git hook of the user's: variables that point at their repository must not reach ours.
    const userRepositoryEnv = {
      GIT_DIR: path.join(workspace, '.git'),
      GIT_INDEX_FILE: path.join(workspace, '.git', 'index'),
      GIT_OBJECT_DIRECTORY: path.join(workspace, '.git', 'objects'),
      GIT_WORK_TREE: workspace,
    };
    Object.assign(process.env, userRepositoryEnv);
    let changes: FileChangeStat[];
    try {
      const store = await openStore();
      const first = await store.create();
      for (let i = 0; i < 12; i++) {
        write(workspace, { [`turn${i}.txt`]: `${i}\n`, 'tracked.txt': `turn ${i}\n` });
        const checkpoint = await store.create();
        await store.changes(checkpoint);
        await store.read(checkpoint, path.join(workspace, 'tracked.txt'));
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
      rmSync(path.join(workspace, `turn${i}.txt`));
    }
    write(workspace, { 'tracked.txt': 'staged\n' });

    assert.ok(
      !changes.some((change) => change.path.includes(`${path.sep}.git${path.sep}`)),
      'no .git file listed',
    );
    assert.equal(existsSync(marker), false, 'no hook of the user ran');
    assert.deepEqual(
      fingerprint(path.join(workspace, '.git')),
      gitBefore,
      '.git is byte-identical (index mtime too)',
    );
    assert.equal(userGit(workspace, 'rev-parse', 'HEAD'), headBefore);
    assert.equal(userGit(workspace, 'ls-files', '-s'), indexBefore);
    assert.equal(userGit(workspace, 'status', '--porcelain'), statusBefore);
    assert.equal(userGit(workspace, 'stash', 'list'), stashBefore);
    assert.match(statusBefore, /^M {2}tracked\.txt$/m);
    assert.match(stashBefore, /stash@\{0\}/);
  });

  it('does not fail on a nested git repository (with no commit yet) and leaves it out', async () => {
    write(workspace, { 'top.txt': 'top\n' });
    mkdirSync(path.join(workspace, 'vendor', 'lib'), { recursive: true });
    userGit(path.join(workspace, 'vendor', 'lib'), 'init', '--quiet');
    write(workspace, { 'vendor/lib/inner.txt': 'inner\n' });
    const store = await openStore();
    const checkpoint = await store.create();
    write(workspace, { 'vendor/lib/inner.txt': 'changed\n', 'top.txt': 'changed\n' });

    assert.deepEqual(summary(await store.changes(checkpoint), workspace), ['modified top.txt +1 -1']);
    rmSync(path.join(workspace, 'vendor', 'lib', '.git'), { recursive: true });
    assert.deepEqual(
      summary(await store.changes(checkpoint), workspace),
      ['modified top.txt +1 -1'],
      'its files were there before: not "created" once it is no longer a repository',
    );
  });

  it('snapshots several workspace folders, each in its own shadow repository', async () => {
    const second = path.join(root, 'second');
    write(workspace, { 'one.txt': 'a\n' });
    write(second, { 'two.txt': 'b\n' });
    const store = await openStore({ folders: [workspace, second] });
    const checkpoint = await store.create();
    write(workspace, { 'one.txt': 'a\nA\n' });
    rmSync(path.join(second, 'two.txt'));

    const changes = await store.changes(checkpoint);

    assert.deepEqual(
      changes.map((change) => [change.folder, path.basename(change.path), change.kind]),
      [
        [second, 'two.txt', 'deleted'],
        [workspace, 'one.txt', 'modified'],
      ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
    );
    assert.deepEqual(
      await store.read(checkpoint, path.join(second, 'two.txt')),
      new Uint8Array(Buffer.from('b\n')),
    );
    assert.ok(existsSync(path.join(storageDir, 'checkpoints', folderKey(workspace), 'HEAD')));
    assert.ok(existsSync(path.join(storageDir, 'checkpoints', folderKey(second), 'HEAD')));
  });

  it('a workspace folder inside another: its files are listed once, under the inner folder', async () => {
    const inner = path.join(workspace, 'packages', 'inner');
    write(workspace, { 'top.txt': 'a\n', 'packages/inner/lib.txt': 'b\n' });
    const store = await openStore({ folders: [workspace, inner] });
    const checkpoint = await store.create();
    write(workspace, { 'top.txt': 'A\n', 'packages/inner/lib.txt': 'B\n' });

    const changes = await store.changes(checkpoint);

    assert.deepEqual(
      changes.map((change) => [
        path.relative(workspace, change.path),
        path.relative(workspace, change.folder),
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
    write(workspace, { 'shared.txt': 'start\n' });
    const store = await openStore();
    const chatA = await store.create();
    write(workspace, { 'from-a.txt': 'a\n' });
    const chatB = await store.create();
    write(workspace, { 'from-b.txt': 'b\n', 'shared.txt': 'start\nb\n' });

    // Both turns end at once, while a third chat starts a turn: the calls are queued, none is lost.
    const [changesA, changesB, chatC] = await Promise.all([
      store.changes(chatA),
      store.changes(chatB),
      store.create(),
    ]);

    assert.deepEqual(summary(changesA, workspace), [
      'created from-a.txt +1 -0',
      'created from-b.txt +1 -0',
      'modified shared.txt +1 -0',
    ]);
    assert.deepEqual(summary(changesB, workspace), ['created from-b.txt +1 -0', 'modified shared.txt +1 -0']);
    assert.deepEqual(await store.changes(chatC), []);
  });

  it('many checkpoints at once all succeed and each records the folder', async () => {
    write(workspace, { 'a.txt': 'a\n' });
    const store = await openStore();
    const ids = await Promise.all(Array.from({ length: 8 }, () => store.create()));
    write(workspace, { 'a.txt': 'b\n' });
    for (const id of ids) {
      assert.deepEqual(summary(await store.changes(id), workspace), ['modified a.txt +1 -1']);
    }
  });

  it('recovers from a corrupt shadow index and a lock left by a crashed git', async () => {
    write(workspace, { 'a.txt': 'a\n' });
    const warnings: string[] = [];
    const store = await openStore({ logger: { ...silentLogger, warn: (message) => warnings.push(message) } });
    const first = await store.create();
    // The store's own index (one per store object: see ownIndex.ts).
    const indexDir = path.join(storageDir, 'checkpoints', folderKey(workspace), 'acp-index');
    const [own] = readdirSync(indexDir);
    const index = path.join(indexDir, own as string);
    writeFileSync(index, 'not an index');
    write(workspace, { 'a.txt': 'b\n' });
    assert.deepEqual(summary(await store.changes(first), workspace), ['modified a.txt +1 -1']);

    writeFileSync(`${index}.lock`, '');
    write(workspace, { 'b.txt': 'new\n' });
    const second = await store.create();
    assert.deepEqual(summary(await store.changes(first, second), workspace), [
      'modified a.txt +1 -1',
      'created b.txt +1 -0',
    ]);
    assert.equal(warnings.filter((warning) => warning.includes('Rebuilding the checkpoint index')).length, 2);
  });

  it('keeps only the newest checkpoints per folder and rejects ids it does not know', async () => {
    write(workspace, { 'a.txt': '0\n' });
    const store = await openStore();
    for (let i = 1; i <= 4; i++) {
      write(workspace, { 'a.txt': `${i}\n` });
      await store.create();
    }
    store.dispose();
    const reopened = await openStore({ keepCheckpoints: 2 });
    await reopened.idle(); // pruning runs in the background after opening
    const gitDir = path.join(storageDir, 'checkpoints', folderKey(workspace));
    const refs = readdirSync(path.join(gitDir, 'refs', 'checkpoints'));
    const packed = existsSync(path.join(gitDir, 'packed-refs'))
      ? readFileSync(path.join(gitDir, 'packed-refs'), 'utf8')
      : '';
    const refCount = refs.length + (packed.match(/refs\/checkpoints\//g) ?? []).length;
    assert.equal(refCount, 2);

    await assert.rejects(() => reopened.changes('nonsense'), CheckpointNotFoundError);
    const unknownCommit = `git1:${folderKey(workspace)}.${'1'.repeat(40)}`;
    await assert.rejects(() => reopened.changes(unknownCommit), CheckpointNotFoundError);
    await assert.rejects(
      () => reopened.read(unknownCommit, path.join(workspace, 'a.txt')),
      CheckpointNotFoundError,
    );
  });
});
