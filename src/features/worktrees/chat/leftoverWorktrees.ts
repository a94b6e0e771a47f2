import type { Logger } from '../../../core/ports';
import { findRepository, placeOf } from '../core/repository';
import { worktreesFolder } from '../core/worktreeFolder';
import { removeWorktree, unrecordedWorktrees } from '../core/worktreeUpkeep';
import type { WorktreeActions } from './worktreeActions';
import type { WorktreeChats, WorktreeChatsHost } from './worktreeChats';
import type { LeftoverWorktree, WorktreeUi } from './worktreeUi';

/**
 * Worktrees left without a chat: the records of chats that are gone, and chat worktrees git knows in a
 * workspace repository's worktrees folder that no record names (a window crashed right after making
 * one). A worktree another window holds is not left over: it is that window's chat's.
 */
export async function findLeftovers(
  worktrees: WorktreeChats,
  host: Pick<WorktreeChatsHost, 'workspaceFolders' | 'settings' | 'locks'>,
  chatExists: (chatId: string) => boolean,
): Promise<LeftoverWorktree[]> {
  await worktrees.restored;
  const git = await worktrees.git();
  const records = worktrees.allRecords();
  const found: LeftoverWorktree[] = records
    .filter((record) => !record.discarded && !chatExists(record.chatId))
    .map((record) => ({ folder: record.folder, branch: record.branch, record }));
  const seen = new Set<string>();
  for (const folder of host.workspaceFolders()) {
    const repository = await findRepository(git, folder);
    if ('problem' in repository || seen.has(repository.root)) {
      continue;
    }
    seen.add(repository.root);
    const parent = worktreesFolder(repository.root, host.settings().folder);
    for (const worktree of await unrecordedWorktrees(git, placeOf(repository), parent, records)) {
      found.push({
        folder: worktree.folder,
        branch: (worktree.branch ?? '').replace(/^refs\/heads\//, ''),
        origin: { root: repository.root, gitDir: repository.gitDir },
      });
    }
  }
  const free: LeftoverWorktree[] = [];
  for (const leftover of found) {
    // Probed, not kept: removing it takes it again.
    if ((await host.locks.hold(leftover.folder)).held) {
      host.locks.release(leftover.folder);
      free.push(leftover);
    }
  }
  return free;
}

/** Offers the leftovers for cleanup and removes those the user picks (asking again where work would be lost). */
export async function offerCleanup(
  leftovers: readonly LeftoverWorktree[],
  deps: { worktrees: WorktreeChats; actions: WorktreeActions; ui: WorktreeUi; logger: Logger },
): Promise<number> {
  if (leftovers.length === 0) {
    return 0;
  }
  const REVIEW = 'Review…';
  const choice = await deps.ui.inform(
    `${leftovers.length === 1 ? 'A worktree is' : `${leftovers.length} worktrees are`} left from agent chats that are gone.`,
    [REVIEW],
  );
  if (choice !== REVIEW) {
    return 0;
  }
  let removed = 0;
  for (const leftover of await deps.ui.pickLeftovers(leftovers)) {
    try {
      if (leftover.record) {
        removed += (await deps.actions.discard(leftover.record.chatId, { forget: true })) ? 1 : 0;
      } else if (leftover.origin) {
        await removeWorktree(await deps.worktrees.git(), {
          folder: leftover.folder,
          branch: leftover.branch,
          repositoryRoot: leftover.origin.root,
          repositoryGitDir: leftover.origin.gitDir,
        });
        removed++;
      }
    } catch (error) {
      deps.logger.error(`Could not remove the worktree ${leftover.folder}: ${String(error)}`);
      void deps.ui.inform(`Could not remove ${leftover.folder}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return removed;
}
