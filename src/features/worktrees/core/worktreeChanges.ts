import { splitNul } from '../../../core/git/safeGit';
import { diffTreeArgs, parseRawAndNumstat, type TreeFileChange } from '../../../core/git/treeDiff';
import type { GitPlace, RepoGit } from './repoGit';
import { withScratch } from './scratch';
import type { WorktreeRecord } from './worktreeRecords';

/** What a worktree holds against the commit it was made from. */
export interface WorktreeChanges {
  /** Files changed, created or deleted (committed on its branch or not). */
  readonly files: readonly TreeFileChange[];
  readonly added: number;
  readonly removed: number;
  /** The worktree's tree now. */
  readonly tree: string;
  /** Whether it holds work that was never applied to the folder it came from (Discard would lose it). */
  readonly unapplied: boolean;
}

/** The worktree's own git place (never found from its `.git` file: an agent could rewrite that). */
export function worktreePlace(record: Pick<WorktreeRecord, 'gitDir' | 'folder'>): GitPlace {
  return { gitDir: record.gitDir, workTree: record.folder };
}

/** The place of the work tree the worktree was made from (where Apply writes). */
export function originPlace(record: Pick<WorktreeRecord, 'repositoryGitDir' | 'repositoryRoot'>): GitPlace {
  return { gitDir: record.repositoryGitDir, workTree: record.repositoryRoot };
}

/**
 * The worktree's changes against its base commit, as its files are on disk now (its ignored files left
 * out), with line counts. Reads only: the snapshot is written in a scratch folder of ours.
 */
export async function worktreeChanges(
  git: RepoGit,
  record: WorktreeRecord,
  scratchDir: string,
): Promise<WorktreeChanges> {
  const place = worktreePlace(record);
  return withScratch(scratchDir, record.commonDir, async (scratch) => {
    const tree = await scratch.snapshot(git, place);
    const baseTree = await git.text(place, ['rev-parse', `${record.baseCommit}^{tree}`], scratch.options());
    const diff = await git.run(place, diffTreeArgs(baseTree, tree), scratch.options());
    const files = parseRawAndNumstat(splitNul(diff.stdout));
    return {
      files,
      added: files.reduce((sum, file) => sum + file.added, 0),
      removed: files.reduce((sum, file) => sum + file.removed, 0),
      tree,
      unapplied: tree !== (record.appliedTree ?? baseTree),
    };
  });
}
