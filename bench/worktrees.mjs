// Worktree chats on a big repository (part of `BENCH_ONLY=bigworkspace`, bench/bigWorkspace.mjs): making a
// chat's worktree (src/features/worktrees/core/worktreeCreation.ts: our safe git, no hook, the folder made
// outside the repository) against a plain `git worktree add` of the same commit, and bringing a 500-file
// change back (the three-way Apply: both work trees snapshotted in a scratch object folder, merged with
// `git merge-tree`, written file by file after checking each) against `git diff | git apply` of the same
// change. Prints figures and returns them; asserts nothing.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { fmt, timed } from './checkpoints.mjs';

const CHANGED_FILES = 500;

const { RepoGit } = await tsImport('../src/features/worktrees/core/repoGit.ts', import.meta.url);
const { createWorktree } = await tsImport('../src/features/worktrees/core/worktreeCreation.ts', import.meta.url);
const { planApply } = await tsImport('../src/features/worktrees/core/applyPlan.ts', import.meta.url);
const { applyToFolder, diskWriter } = await tsImport('../src/features/worktrees/core/applyToFolder.ts', import.meta.url);

const git = (cwd, args, input) =>
  execFileSync('git', args, { cwd, input, maxBuffer: 1024 * 1024 * 1024, stdio: ['pipe', 'pipe', 'pipe'] });

/** The same change in a work tree: a line appended to `CHANGED_FILES` files spread over the repository. */
function changeFiles(folder, paths) {
  const step = Math.max(1, Math.floor(paths.length / CHANGED_FILES));
  let changed = 0;
  for (let i = 0; i < paths.length && changed < CHANGED_FILES; i += step, changed++) {
    const file = join(folder, paths[i]);
    writeFileSync(file, `${readFileSync(file, 'utf8')}// changed by the agent\n`);
  }
  return changed;
}

/**
 * Measures both steps on `workspace` (a committed git repository of `paths`); `root` is a scratch folder
 * of the bench beside it. The workspace's files are put back afterwards.
 */
export async function measureWorktrees(workspace, paths, root) {
  const repoGit = new RepoGit('git', join(root, 'worktree-hooks'));
  const plainFolder = join(root, 'plain-worktree');
  const plain = await timed(async () => git(workspace, ['worktree', 'add', '--quiet', '-b', 'bench-plain', plainFolder, 'HEAD']));
  const ours = await timed(() =>
    createWorktree(repoGit, {
      chatId: 'bench',
      name: 'bench chat',
      folder: workspace,
      include: [],
      workspaceFolders: [workspace],
    }),
  );
  const { record } = ours.result;
  console.log(
    `  worktree: a chat's worktree of ${paths.length.toLocaleString('en')} files ${fmt(ours.ms)}; plain git worktree add ${fmt(plain.ms)}`,
  );
  const changed = changeFiles(plainFolder, paths);
  changeFiles(record.folder, paths);
  // Baseline: the same change as a patch, applied to the folder by git itself.
  const gitApply = await timed(async () => {
    const patch = git(plainFolder, ['diff', '--binary']);
    git(workspace, ['apply', '--whitespace=nowarn'], patch);
  });
  git(workspace, ['checkout', '--quiet', '--', '.']);
  const plan = await timed(() => planApply(repoGit, record, join(root, 'worktree-scratch')));
  const write = await timed(() => applyToFolder(plan.result, workspace, diskWriter));
  const written = write.result.written.length;
  git(workspace, ['checkout', '--quiet', '--', '.']);
  console.log(
    `  worktree: Apply of a ${changed}-file change ${fmt(plan.ms + write.ms)} (plan ${fmt(plan.ms)}, write ${fmt(write.ms)}; ${written} written); git diff | git apply ${fmt(gitApply.ms)}`,
  );
  // The two worktrees stay until the bench's folder is removed whole: `git worktree remove` of 200,000
  // files took longer than the rest of this bench, and they are outside the workspace the later steps use.
  rmSync(join(root, 'worktree-scratch'), { recursive: true, force: true });
  return {
    files: paths.length,
    createMs: ours.ms,
    plainCreateMs: plain.ms,
    changed,
    written,
    planMs: plan.ms,
    writeMs: write.ms,
    gitApplyMs: gitApply.ms,
  };
}
