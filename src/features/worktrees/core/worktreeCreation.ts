import { realpath, rmdir } from 'node:fs/promises';
import * as path from 'node:path';
import { isLexicallyWithin } from '../../../core/files/pathConfinement';
import { copyIncludedFiles, type IncludeOutcome } from './includedFiles';
import type { RepoGit } from './repoGit';
import { findRepository, headCommit, placeOf, type Repository } from './repository';
import { BRANCH_PREFIX, makeWorktreeFolder, worktreeName, worktreesFolder } from './worktreeFolder';
import type { WorktreeRecord } from './worktreeRecords';

/** A worktree could not be made: the message says why, in the user's words. */
export class WorktreeError extends Error {
  override readonly name = 'WorktreeError';
}

export interface WorktreeRequest {
  readonly chatId: string;
  /** What the worktree and its branch are named after (the chat's name). */
  readonly name: string;
  /** The workspace folder whose repository the worktree is made of. */
  readonly folder: string;
  /** `acpAgents.worktrees.folder`: where worktrees go (empty: beside the repository). */
  readonly worktreesFolder?: string;
  /** `acpAgents.worktrees.include`: untracked files copied in (`.env`). */
  readonly include: readonly string[];
  /** The workspace folders: no worktree inside one. */
  readonly workspaceFolders: readonly string[];
  readonly group?: string;
}

export interface CreatedWorktree {
  readonly record: WorktreeRecord;
  readonly included: IncludeOutcome;
}

/**
 * Makes a worktree for a chat: from the commit HEAD points at, on a new branch `acp/<name>`, in a
 * folder of its own outside every workspace folder and outside the repository, the listed untracked
 * files copied in. Git runs with no hook of the repository (a `post-checkout` hook does not run) and no
 * driver; the user's index, HEAD and stash are not touched. A failure leaves no folder behind.
 */
export async function createWorktree(git: RepoGit, request: WorktreeRequest): Promise<CreatedWorktree> {
  const repository = await findRepository(git, request.folder);
  if ('problem' in repository) {
    throw new WorktreeError(`No worktree: ${repository.problem}.`);
  }
  const head = await headCommit(git, repository);
  if ('problem' in head) {
    throw new WorktreeError(`No worktree: ${head.problem}.`);
  }
  const made = await makeWorktreeFolder(
    worktreesFolder(repository.root, request.worktreesFolder),
    worktreeName(request.name),
    [...request.workspaceFolders, repository.root],
    (name) => branchExists(git, repository, `${BRANCH_PREFIX}${name}`),
  );
  if ('problem' in made) {
    throw new WorktreeError(`No worktree: ${made.problem}.`);
  }
  const branch = `${BRANCH_PREFIX}${made.name}`;
  try {
    await git.run(placeOf(repository), [
      'worktree',
      'add',
      '--quiet',
      '-b',
      branch,
      made.folder,
      head.commit,
    ]);
  } catch (error) {
    await rmdir(made.folder).catch(() => undefined);
    throw new WorktreeError(
      `No worktree: git could not make it (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  const gitDir = await worktreeGitDir(git, repository, made.folder);
  const included = await copyIncludedFiles(git, repository, made.folder, request.include);
  return {
    record: {
      chatId: request.chatId,
      repositoryRoot: repository.root,
      repositoryGitDir: repository.gitDir,
      commonDir: repository.commonDir,
      folder: made.folder,
      gitDir,
      branch,
      baseCommit: head.commit,
      createdAt: Date.now(),
      ...(request.group === undefined ? {} : { group: request.group }),
    },
    included,
  };
}

async function branchExists(git: RepoGit, repository: Repository, branch: string): Promise<boolean> {
  const found = await git.run(
    placeOf(repository),
    ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`],
    {
      okExitCodes: [1],
    },
  );
  return found.exitCode === 0;
}

/** The new worktree's own git folder, as git just wrote it: it must lie in the repository's `worktrees/`. */
async function worktreeGitDir(git: RepoGit, repository: Repository, folder: string): Promise<string> {
  const gitDir = await realpath((await git.discover(folder, ['rev-parse', '--absolute-git-dir'])).trim());
  if (!isLexicallyWithin(gitDir, path.join(repository.commonDir, 'worktrees'))) {
    throw new WorktreeError(`No worktree: git put its folder at ${gitDir}, outside the repository.`);
  }
  return gitDir;
}
