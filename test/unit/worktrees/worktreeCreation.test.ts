import { strict as assert } from 'node:assert';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { createWorktree, WorktreeError } from '../../../src/features/worktrees/core/worktreeCreation';
import { worktreeName } from '../../../src/features/worktrees/core/worktreeFolder';
import { sandbox, userGit, type Sandbox } from './support/repo';

describe('worktrees: a chat in its own worktree', function () {
  this.timeout(30_000);
  let box: Sandbox;
  beforeEach(() => {
    box = sandbox({ 'app.txt': 'one\ntwo\nthree\n', '.gitignore': '.env\n' });
  });
  afterEach(() => box.dispose());

  const request = (overrides: Partial<Parameters<typeof createWorktree>[1]> = {}) => ({
    chatId: 'chat-1',
    name: 'Fix the parser',
    folder: box.repo,
    include: [],
    workspaceFolders: [box.repo],
    ...overrides,
  });

  it('is made from HEAD on a new acp/ branch beside the repository, with the listed untracked files copied in', async () => {
    box.write('.env', 'SECRET=1\n');
    box.write('notes.local', 'not listed\n');
    const before = box.userView();
    const { record, included } = await createWorktree(box.git, request({ include: ['.env'] }));
    assert.equal(record.folder, path.join(box.root, 'project.worktrees', 'fix-the-parser'));
    assert.equal(record.branch, 'acp/fix-the-parser');
    assert.equal(record.baseCommit, before.head.trim());
    assert.equal(box.read(path.join(record.folder, 'app.txt')), 'one\ntwo\nthree\n');
    assert.equal(box.read(path.join(record.folder, '.env')), 'SECRET=1\n');
    assert.equal(existsSync(path.join(record.folder, 'notes.local')), false, 'only what is listed is copied');
    assert.deepEqual(included.copied, ['.env']);
    assert.equal(userGit(record.folder, ['rev-parse', '--abbrev-ref', 'HEAD']).trim(), 'acp/fix-the-parser');
    assert.deepEqual(box.userView(), before, "the user's status, HEAD, stash and index are as they were");
  });

  it('names the folder and branch after the chat, and takes the next free name', async () => {
    assert.equal(worktreeName('Fix: the Parser! (ünïcode)'), 'fix-the-parser-unicode');
    assert.equal(worktreeName('???'), 'chat');
    const first = await createWorktree(box.git, request({ chatId: 'a' }));
    const second = await createWorktree(box.git, request({ chatId: 'b' }));
    assert.equal(path.basename(second.record.folder), 'fix-the-parser-2');
    assert.equal(second.record.branch, 'acp/fix-the-parser-2');
    assert.notEqual(first.record.folder, second.record.folder);
  });

  it('runs no hook, filter or monitor of the repository (a hostile post-checkout hook writes nothing)', async () => {
    const marker = path.join(box.root, 'MARKER');
    const hook = path.join(box.repo, '.git', 'hooks', 'post-checkout');
    mkdirSync(path.dirname(hook), { recursive: true });
    writeFileSync(hook, `#!/bin/sh\necho hook >> '${marker}'\n`);
    chmodSync(hook, 0o755);
    box.write('.gitattributes', '* filter=evil diff=evil\n');
    userGit(box.repo, ['add', '.gitattributes']);
    userGit(box.repo, ['commit', '-q', '-m', 'attributes']);
    userGit(box.repo, ['config', 'filter.evil.smudge', `sh -c 'echo smudge >> "${marker}"; cat'`]);
    userGit(box.repo, ['config', 'filter.evil.clean', `sh -c 'echo clean >> "${marker}"; cat'`]);
    userGit(box.repo, ['config', 'filter.evil.required', 'true']);
    userGit(box.repo, ['config', 'core.fsmonitor', `${path.join(box.root, 'monitor.sh')}`]);
    writeFileSync(path.join(box.root, 'monitor.sh'), `#!/bin/sh\necho monitor >> '${marker}'\n`);
    chmodSync(path.join(box.root, 'monitor.sh'), 0o755);
    box.write('.env', 'SECRET=1\n');
    const { record } = await createWorktree(box.git, request({ include: ['.env'] }));
    assert.ok(existsSync(path.join(record.folder, 'app.txt')), 'the checkout happened');
    assert.equal(existsSync(marker), false, 'no program of the repository ran');
    // The guard is what keeps it out: the user's own git runs the hook.
    userGit(box.repo, [
      '-c',
      'core.fsmonitor=false',
      'worktree',
      'add',
      '-q',
      '-b',
      'plain',
      path.join(box.root, 'plain'),
    ]);
    assert.match(box.read(marker), /hook/);
  });

  it('refuses a worktrees folder inside a workspace folder or the repository', async () => {
    await assert.rejects(
      createWorktree(box.git, request({ worktreesFolder: path.join(box.repo, 'trees') })),
      (error: unknown) => error instanceof WorktreeError && /must lie outside/.test(error.message),
    );
    const other = path.join(box.root, 'other-workspace');
    mkdirSync(other);
    await assert.rejects(
      createWorktree(
        box.git,
        request({ worktreesFolder: path.join(other, 'trees'), workspaceFolders: [box.repo, other] }),
      ),
      /must lie outside/,
    );
    assert.deepEqual(readdirSync(other), [], 'nothing was made there');
  });

  it('never goes through a link planted where its folder would be, nor copies through one', async () => {
    const outside = path.join(box.root, 'outside');
    mkdirSync(outside);
    const parent = path.join(box.root, 'project.worktrees');
    mkdirSync(parent);
    symlinkSync(outside, path.join(parent, 'fix-the-parser'));
    mkdirSync(path.join(box.root, 'secrets'));
    writeFileSync(path.join(box.root, 'secrets', 'key'), 'private\n');
    symlinkSync(path.join(box.root, 'secrets'), path.join(box.repo, 'linked'));
    const { record, included } = await createWorktree(box.git, request({ include: ['linked/key', '.env'] }));
    assert.equal(path.basename(record.folder), 'fix-the-parser-2', 'the planted link is passed over');
    assert.deepEqual(readdirSync(outside), [], 'nothing was written through the link');
    assert.ok(lstatSync(path.join(parent, 'fix-the-parser')).isSymbolicLink());
    assert.equal(existsSync(path.join(record.folder, 'linked', 'key')), false);
    assert.deepEqual(included.copied, []);
  });

  it('says why when the folder is no repository or has no commit yet, and leaves nothing behind', async () => {
    const plain = path.join(box.root, 'plain');
    mkdirSync(plain);
    await assert.rejects(
      createWorktree(box.git, request({ folder: plain, workspaceFolders: [plain] })),
      /not in a git/,
    );
    const empty = path.join(box.root, 'empty');
    mkdirSync(empty);
    userGit(empty, ['init', '-q']);
    await assert.rejects(
      createWorktree(box.git, request({ folder: empty, workspaceFolders: [empty] })),
      /no commit yet/,
    );
    assert.equal(existsSync(path.join(box.root, 'empty.worktrees', 'fix-the-parser')), false);
  });
});
