import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import type { GitPlace, RepoGit } from './repoGit';

/** The git repository a workspace folder is in, as worktrees need it. */
export interface Repository {
  /** The top of the folder's work tree (real path). */
  readonly root: string;
  /** Its git folder: GIT_DIR of `root` (the repository's `.git`, or a linked worktree's folder in it). */
  readonly gitDir: string;
  /** The repository's shared git folder (where `objects/`, `refs/` and `worktrees/` are). */
  readonly commonDir: string;
}

/** The place to run git for the repository's own work tree. */
export function placeOf(repository: Repository): GitPlace {
  return { gitDir: repository.gitDir, workTree: repository.root };
}

/**
 * The repository `folder` is in, found the way git finds it (the only time we let git look: the user
 * opened this folder), or why there is none: not a repository, a bare one, git missing.
 */
export async function findRepository(
  git: RepoGit,
  folder: string,
): Promise<Repository | { readonly problem: string }> {
  let output: string;
  try {
    output = await git.discover(folder, [
      'rev-parse',
      '--is-bare-repository',
      '--show-toplevel',
      '--absolute-git-dir',
      '--git-common-dir',
    ]);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return {
      problem: /not a git repository/i.test(text)
        ? `${folder} is not in a git repository`
        : /ENOENT/.test(text)
          ? 'git was not found on PATH'
          : `git could not read the repository of ${folder} (${text})`,
    };
  }
  const [bare, root, gitDir, common] = output.split('\n');
  if (bare === 'true' || !root || !gitDir || !common) {
    return { problem: `${folder} is not in a git work tree` };
  }
  return {
    root: await realpath(root),
    gitDir: await realpath(gitDir),
    commonDir: await realpath(path.resolve(folder, common)),
  };
}

/** The commit HEAD points at, or why a worktree cannot start from it (no commit yet). */
export async function headCommit(
  git: RepoGit,
  repository: Repository,
): Promise<{ readonly commit: string } | { readonly problem: string }> {
  const commit = await git.text(placeOf(repository), ['rev-parse', '--verify', '-q', 'HEAD^{commit}'], {
    okExitCodes: [1],
  });
  return /^[0-9a-f]{40,64}$/.test(commit)
    ? { commit }
    : { problem: 'the repository has no commit yet: commit once, then a worktree can start from it' };
}
