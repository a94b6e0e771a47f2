import * as path from 'node:path';
import { isLexicallyWithin } from '../../../core/files/pathConfinement';
import { splitNul } from '../../../core/git/safeGit';
import { isSamePath } from '../../../core/platform/pathNames';
import type { GitPlace, RepoGit } from './repoGit';
import { BRANCH_PREFIX } from './worktreeFolder';
import { originPlace, worktreePlace } from './worktreeChanges';
import type { WorktreeRecord } from './worktreeRecords';

/** A worktree git knows of (`git worktree list`). */
export interface RegisteredWorktree {
  readonly folder: string;
  /** `refs/heads/…`, absent when detached. */
  readonly branch?: string;
}

/** The worktrees of the repository at `place` (its own work tree first). */
export async function listWorktrees(git: RepoGit, place: GitPlace): Promise<RegisteredWorktree[]> {
  const output = await git.run(place, ['worktree', 'list', '--porcelain', '-z']);
  const worktrees: RegisteredWorktree[] = [];
  let current: { folder?: string; branch?: string } = {};
  for (const field of [...splitNul(output.stdout), '']) {
    if (field === '') {
      if (current.folder !== undefined) {
        worktrees.push({ folder: current.folder, ...(current.branch ? { branch: current.branch } : {}) });
      }
      current = {};
    } else if (field.startsWith('worktree ')) {
      current.folder = field.slice('worktree '.length);
    } else if (field.startsWith('branch ')) {
      current.branch = field.slice('branch '.length);
    }
  }
  return worktrees;
}

/**
 * The chat worktrees of the repository in `parent` that no chat of this workspace knows: made by a
 * window that crashed before it recorded them, or whose chat's record was lost. Only ours are listed —
 * in the worktrees folder, on an `acp/` branch — never a worktree the user made.
 */
export async function unrecordedWorktrees(
  git: RepoGit,
  place: GitPlace,
  parent: string,
  records: readonly WorktreeRecord[],
): Promise<RegisteredWorktree[]> {
  const known = records.map((record) => record.folder);
  return (await listWorktrees(git, place)).filter(
    (worktree) =>
      worktree.branch?.startsWith(`refs/heads/${BRANCH_PREFIX}`) === true &&
      isLexicallyWithin(worktree.folder, parent) &&
      !isSamePath(worktree.folder, parent) &&
      !known.some((folder) => isSamePath(folder, worktree.folder)),
  );
}

/**
 * Removes a chat's worktree — its folder (with what is in it) and git's record of it — and its `acp/`
 * branch. Only a worktree git lists at the recorded folder is removed (a folder that is no longer one is
 * left); the caller has made sure no unapplied work is lost, or asked.
 */
export async function removeWorktree(
  git: RepoGit,
  record: Pick<WorktreeRecord, 'folder' | 'branch' | 'repositoryRoot' | 'repositoryGitDir'>,
): Promise<void> {
  const place = originPlace(record);
  const registered = (await listWorktrees(git, place)).find((worktree) =>
    isSamePath(worktree.folder, record.folder),
  );
  if (registered) {
    await git.run(place, ['worktree', 'remove', '--force', '--force', record.folder]);
  }
  if (record.branch.startsWith(BRANCH_PREFIX)) {
    await git.run(place, ['branch', '-D', '--quiet', record.branch], { okExitCodes: [1] });
  }
}

/**
 * Commits everything in the worktree on its branch, with the user's name (their git configuration), no
 * hook run. Undefined when there was nothing to commit.
 */
export async function commitWorktree(
  git: RepoGit,
  record: WorktreeRecord,
  message: string,
): Promise<string | undefined> {
  const place = worktreePlace(record);
  await git.run(place, ['add', '-A', '--', '.']);
  const staged = await git.run(place, ['diff', '--cached', '--quiet', '--no-ext-diff'], { okExitCodes: [1] });
  if (staged.exitCode === 0) {
    return undefined;
  }
  await git.run(place, ['commit', '--quiet', '--no-verify', '-m', message]);
  return git.text(place, ['rev-parse', 'HEAD']);
}

/** The folder name shown for a worktree (its last path component). */
export function worktreeLabel(folder: string): string {
  return path.basename(folder);
}
