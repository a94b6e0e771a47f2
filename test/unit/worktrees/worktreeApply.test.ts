import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { applyToFolder, diskWriter, undoApply } from '../../../src/features/worktrees/core/applyToFolder';
import { planApply } from '../../../src/features/worktrees/core/applyPlan';
import { worktreeChanges } from '../../../src/features/worktrees/core/worktreeChanges';
import { createWorktree } from '../../../src/features/worktrees/core/worktreeCreation';
import type { WorktreeRecord } from '../../../src/features/worktrees/core/worktreeRecords';
import {
  commitWorktree,
  listWorktrees,
  removeWorktree,
  unrecordedWorktrees,
} from '../../../src/features/worktrees/core/worktreeUpkeep';
import { sandbox, userGit, type Sandbox } from './support/repo';
import { until } from '../../support/until';

describe('worktrees: bringing the work back', function () {
  this.timeout(30_000);
  let box: Sandbox;
  let record: WorktreeRecord;
  let scratch: string;
  beforeEach(async () => {
    box = sandbox({
      'app.txt': 'one\ntwo\nthree\nfour\nfive\n',
      'keep.txt': 'kept\n',
      'gone.txt': 'to delete\n',
    });
    scratch = path.join(box.storage, 'scratch');
    ({ record } = await createWorktree(box.git, {
      chatId: 'chat-1',
      name: 'agent',
      folder: box.repo,
      include: [],
      workspaceFolders: [box.repo],
    }));
  });
  afterEach(() => box.dispose());
  const inWorktree = (rel: string, text: string): void => writeFileSync(path.join(record.folder, rel), text);

  it("lists the worktree's changes with line counts, and whether any is unapplied", async () => {
    const clean = await worktreeChanges(box.git, record, scratch);
    assert.deepEqual(clean.files, []);
    assert.equal(clean.unapplied, false, 'a fresh worktree holds nothing to lose');
    inWorktree('app.txt', 'one\nTWO\nthree\nfour\nfive\n');
    inWorktree('new.txt', 'a\nb\n');
    rmSync(path.join(record.folder, 'gone.txt'));
    const changed = await worktreeChanges(box.git, record, scratch);
    assert.deepEqual(
      changed.files.map((file) => [file.rel, file.kind, file.added, file.removed]),
      [
        ['app.txt', 'modified', 1, 1],
        ['gone.txt', 'deleted', 0, 1],
        ['new.txt', 'created', 2, 0],
      ],
    );
    assert.equal(changed.added, 3);
    assert.equal(changed.unapplied, true);
    assert.deepEqual(readdirSync(scratch), [], 'the scratch folder is removed');
  });

  it('sees a file changed in place, size kept, in the second its worktree was made (git’s racy stat data)', async () => {
    // git compares whole seconds here: a file changed in the checkout's second looks unchanged by its stat
    // unless the index is no older than it. The copy of the index our snapshot reads must keep that time.
    for (let run = 0; run < 3; run++) {
      await until(() => Date.now() % 1000 < 300, 'the start of a second');
      const second = Math.floor(Date.now() / 1000);
      const made = await createWorktree(box.git, {
        chatId: `racy-${run}`,
        name: `racy-${run}`,
        folder: box.repo,
        include: [],
        workspaceFolders: [box.repo],
      });
      writeFileSync(path.join(made.record.folder, 'app.txt'), 'one\nTWO\nthree\nfour\nfive\n');
      if (Math.floor(Date.now() / 1000) !== second) {
        continue; // the machine was too slow to stay in one second: this run proves nothing
      }
      await until(() => Math.floor(Date.now() / 1000) > second, 'the next second');
      const changed = await worktreeChanges(box.git, made.record, scratch);
      assert.deepEqual(
        changed.files.map((file) => [file.rel, file.kind]),
        [['app.txt', 'modified']],
        `run ${run}`,
      );
    }
  });

  it("merges the agent's work with the user's uncommitted work, and touches nothing of git's until then", async () => {
    inWorktree('app.txt', 'one\nTWO by agent\nthree\nfour\nfive\n');
    inWorktree('new.txt', 'made by the agent\n');
    rmSync(path.join(record.folder, 'gone.txt'));
    box.write('app.txt', 'one\ntwo\nthree\nfour\nFIVE by user\n');
    box.write('mine.txt', 'the user’s own new file\n');
    const before = box.userView();
    const plan = await planApply(box.git, record, scratch);
    assert.ok(plan);
    assert.deepEqual(box.userView(), before, 'planning wrote nothing the user sees');
    const outcome = await applyToFolder(plan, box.repo, diskWriter);
    assert.deepEqual(outcome.leftAlone, []);
    assert.equal(box.read(path.join(box.repo, 'app.txt')), 'one\nTWO by agent\nthree\nfour\nFIVE by user\n');
    assert.equal(box.read(path.join(box.repo, 'new.txt')), 'made by the agent\n');
    assert.equal(existsSync(path.join(box.repo, 'gone.txt')), false);
    assert.equal(box.read(path.join(box.repo, 'mine.txt')), 'the user’s own new file\n');
    const after = box.userView();
    assert.equal(after.head, before.head, 'HEAD is where it was');
    assert.equal(after.stash, before.stash);
    assert.equal(after.index, before.index, 'the index was not written');
    assert.deepEqual(readdirSync(scratch), []);
  });

  it('gives a file both sides changed conflict markers and its three versions', async () => {
    inWorktree('app.txt', 'one\nagent\nthree\nfour\nfive\n');
    box.write('app.txt', 'one\nuser\nthree\nfour\nfive\n');
    const plan = await planApply(box.git, record, scratch);
    const file = plan?.files.find((f) => f.rel === 'app.txt');
    assert.ok(file?.conflict);
    assert.equal(file.conflict.base?.toString(), 'one\ntwo\nthree\nfour\nfive\n');
    assert.equal(file.conflict.ours?.toString(), 'one\nuser\nthree\nfour\nfive\n');
    assert.equal(file.conflict.theirs?.toString(), 'one\nagent\nthree\nfour\nfive\n');
    assert.match(
      file.content?.toString() ?? '',
      /<<<<<<< [\s\S]*user[\s\S]*=======[\s\S]*agent[\s\S]*>>>>>>> /,
    );
  });

  it('leaves a file the user changed after the plan, and one reached through a link', async () => {
    inWorktree('app.txt', 'agent\n');
    inWorktree('keep.txt', 'agent\n');
    const plan = await planApply(box.git, record, scratch);
    assert.ok(plan);
    box.write('app.txt', 'typed meanwhile\n');
    rmSync(path.join(box.repo, 'keep.txt'));
    symlinkSync(path.join(box.root, 'outside.txt'), path.join(box.repo, 'keep.txt'));
    const outcome = await applyToFolder(plan, box.repo, diskWriter);
    assert.deepEqual(
      outcome.leftAlone.map((file) => file.rel),
      ['app.txt', 'keep.txt'],
    );
    assert.equal(box.read(path.join(box.repo, 'app.txt')), 'typed meanwhile\n');
    assert.equal(existsSync(path.join(box.root, 'outside.txt')), false, 'nothing written through the link');
  });

  it('undoes an Apply for the files still as it left them', async () => {
    inWorktree('app.txt', 'agent\n');
    inWorktree('new.txt', 'new\n');
    const plan = await planApply(box.git, record, scratch);
    assert.ok(plan);
    const outcome = await applyToFolder(plan, box.repo, diskWriter);
    const undone = await undoApply(outcome.written, box.repo, diskWriter);
    assert.equal(undone.undone, 2);
    assert.equal(box.read(path.join(box.repo, 'app.txt')), 'one\ntwo\nthree\nfour\nfive\n');
    assert.equal(existsSync(path.join(box.repo, 'new.txt')), false);
    assert.equal(box.userView().status, '');
  });

  it('has nothing to apply for an untouched worktree or one applied already', async () => {
    assert.equal(await planApply(box.git, record, scratch), undefined);
    inWorktree('app.txt', 'agent\n');
    const plan = await planApply(box.git, record, scratch);
    assert.ok(plan);
    assert.equal(await planApply(box.git, { ...record, appliedTree: plan.worktreeTree }, scratch), undefined);
    const changes = await worktreeChanges(box.git, { ...record, appliedTree: plan.worktreeTree }, scratch);
    assert.equal(changes.unapplied, false);
  });

  it('commits on its branch with the user’s name, and no hook runs', async () => {
    inWorktree('app.txt', 'agent\n');
    const commit = await commitWorktree(box.git, record, 'Agent work');
    assert.ok(commit);
    assert.equal(
      userGit(box.repo, ['log', '-1', '--format=%an %s', record.branch]).trim(),
      'Test User Agent work',
    );
    assert.equal(await commitWorktree(box.git, record, 'Again'), undefined, 'nothing left to commit');
  });

  it('removes the worktree and its branch, and finds one no chat knows', async () => {
    const other = await createWorktree(box.git, {
      chatId: 'chat-2',
      name: 'lost',
      folder: box.repo,
      include: [],
      workspaceFolders: [box.repo],
    });
    const parent = path.dirname(record.folder);
    const leftovers = await unrecordedWorktrees(
      box.git,
      { gitDir: record.repositoryGitDir, workTree: box.repo },
      parent,
      [record],
    );
    assert.deepEqual(
      leftovers.map((w) => w.folder),
      [other.record.folder],
    );
    userGit(box.repo, ['worktree', 'add', '-q', '-b', 'acp/users-own', path.join(box.root, 'elsewhere')]);
    assert.equal(
      (
        await unrecordedWorktrees(box.git, { gitDir: record.repositoryGitDir, workTree: box.repo }, parent, [
          record,
        ])
      ).length,
      1,
      "the user's own worktree outside the folder is never a leftover",
    );
    await removeWorktree(box.git, record);
    assert.equal(existsSync(record.folder), false);
    assert.equal(userGit(box.repo, ['branch', '--list', record.branch]), '');
    const registered = await listWorktrees(box.git, { gitDir: record.repositoryGitDir, workTree: box.repo });
    assert.ok(!registered.some((worktree) => worktree.folder === record.folder));
  });
});
