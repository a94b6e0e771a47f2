import type { WorktreeOffer } from '../../../protocol';
import { findRepository, headCommit } from '../core/repository';
import type { WorktreeChats } from './worktreeChats';
import type { WorktreeOffers } from './worktreesContribution';

/**
 * Whether an empty chat in a folder can start in a new worktree: the workspace is trusted, git is
 * there, the folder is in a repository with a commit. Found out once per folder (one `git rev-parse`),
 * asked again when trust or the folders change (`forget`).
 */
export class RepositoryOffers implements WorktreeOffers {
  private readonly known = new Map<string, WorktreeOffer>();
  private readonly looking = new Set<string>();

  constructor(
    private readonly worktrees: Pick<WorktreeChats, 'git'>,
    private readonly trusted: () => boolean,
  ) {}

  offer(folder: string): WorktreeOffer | undefined {
    if (!this.trusted()) {
      return { available: false, reason: 'Worktrees are not used in Restricted Mode: trust the workspace first.' };
    }
    return this.known.get(folder);
  }

  look(folder: string, known: () => void): void {
    if (this.looking.has(folder) || this.known.has(folder) || !this.trusted()) {
      return;
    }
    this.looking.add(folder);
    void this.find(folder)
      .then((offer) => this.known.set(folder, offer))
      .finally(() => {
        this.looking.delete(folder);
        known();
      });
  }

  /** Trust or the folders changed: every folder is looked at again. */
  forget(): void {
    this.known.clear();
  }

  private async find(folder: string): Promise<WorktreeOffer> {
    try {
      const git = await this.worktrees.git();
      const repository = await findRepository(git, folder);
      if ('problem' in repository) {
        return { available: false, reason: `No worktree: ${repository.problem}.` };
      }
      const head = await headCommit(git, repository);
      return 'problem' in head ? { available: false, reason: `No worktree: ${head.problem}.` } : { available: true };
    } catch (error) {
      return { available: false, reason: error instanceof Error ? error.message : String(error) };
    }
  }
}
