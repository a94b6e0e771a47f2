import type { ChangeListing, TrustedLook } from './changedFiles';
import type { FolderStamps } from './folderStamps';

/**
 * Past this many indexed files no proof is made: our `lstat` of each on one thread would cost about what
 * git's own `diff-files` (on several threads) costs at Send, so the checkpoint is taken then as usual.
 */
export const MAX_PROVEN_FILES = 20_000;

/**
 * Proof that the folder is still what checkpoint `commit` recorded, so that the checkpoint at Send can be
 * the one taken while the user typed (issue: the checkpoint off the send path). It holds while
 * - every file of the shadow index has the stamp (inode, size, mtime, ctime, mode; a link's target's
 *   too) it had *before* the checkpoint read it, each stamp settled when taken (see ./folderStamps): a
 *   file written since, even in place with the same size, has a later ctime;
 * - the listing's trusted look, also taken before that snapshot, still holds: no folder's entries and
 *   no rule file changed, so no file appeared, went or was renamed, and git's untracked list is still
 *   empty; nor did a file left out for its size change (the exclude file is the same).
 * Any doubt (a stamp not settled, the index's files not the same after the snapshot as before it, the
 * stamps not taken) means no proof, and the checkpoint at Send is taken as it always was.
 */
export class CheckpointProof {
  private constructor(
    readonly commit: string,
    private readonly files: FolderStamps,
    private readonly look: TrustedLook,
  ) {}

  /**
   * Takes checkpoint `take()` with its proof: the indexed files (`indexed()`) are stamped before it, and
   * listed again after it. Resolves with the commit, and the proof when there is one.
   */
  static async around(
    listing: ChangeListing,
    indexed: () => Promise<string[]>,
    take: () => Promise<string>,
  ): Promise<{ readonly commit: string; readonly proof?: CheckpointProof }> {
    const before = await indexed();
    if (before.length > MAX_PROVEN_FILES) {
      return { commit: await take() };
    }
    const files = listing.newStamps();
    await files.addFiles(before);
    const commit = await take();
    const look = listing.trustedLook();
    if (look === undefined || !files.trustworthy || !sameFiles(before, await indexed())) {
      return { commit };
    }
    return { commit, proof: new CheckpointProof(commit, files, look) };
  }

  /**
   * Whether the folder is provably as `commit` recorded it: every stamp as it was. The look and the files are
   * asked at once: this runs between Send and the prompt, and each is a wait on other threads.
   */
  async holds(listing: ChangeListing): Promise<boolean> {
    const [looked, stamped] = await Promise.all([listing.stillHolds(this.look), this.files.unchanged()]);
    return looked && stamped;
  }
}

function sameFiles(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((rel, index) => rel === b[index]);
}

/**
 * The checkpoints taken ahead of Send in one folder: the newest one's proof, and the commit of one no Send
 * has used yet. Its ref goes when a newer checkpoint replaces it unused, so clicks into the message box
 * while files change never push the turns' own checkpoints out of the ones kept.
 */
export class CheckpointsAhead {
  private proof: CheckpointProof | undefined;
  /** Made ahead (a new commit, not the newest checkpoint again), not yet returned by a Send. */
  private unused: string | undefined;

  constructor(
    private readonly listing: ChangeListing,
    /** Deletes the ref of checkpoint `commit` (its objects go with the next pruning). */
    private readonly dropRef: (commit: string) => Promise<void>,
  ) {}

  /** The checkpoint taken ahead while its proof holds and it is still the newest (`newest`); else none. */
  async proven(newest: string | undefined): Promise<string | undefined> {
    const proof = this.proof;
    if (proof !== undefined && proof.commit === newest && (await proof.holds(this.listing))) {
      return proof.commit;
    }
    this.proof = undefined;
    return undefined;
  }

  /** Takes a checkpoint ahead (`take`), with its proof (see `CheckpointProof.around`). */
  async take(
    indexed: () => Promise<string[]>,
    take: () => Promise<string>,
    newestBefore: string | undefined,
  ): Promise<void> {
    const { commit, proof } = await CheckpointProof.around(this.listing, indexed, take);
    this.proof = proof;
    if (commit !== newestBefore) {
      await this.replaced(commit);
      this.unused = commit;
    }
  }

  /** A Send got checkpoint `commit`: one taken ahead is used, or replaced unused. */
  async sent(commit: string): Promise<void> {
    if (commit === this.unused) {
      this.unused = undefined;
    } else {
      await this.replaced(commit);
    }
  }

  private async replaced(by: string): Promise<void> {
    const unused = this.unused;
    if (unused !== undefined && unused !== by) {
      this.unused = undefined;
      await this.dropRef(unused);
    }
  }
}
