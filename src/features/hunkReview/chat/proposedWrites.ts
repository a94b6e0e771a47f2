import { Emitter, type Disposable } from '../../../core/util/disposable';
import { mixHunks, sameHunk, splitHunks, type FileVersions, type Hunk } from '../core/hunks';
import type { ProposedWriteDecision, ProposedWritesPort } from './hunkReviewPorts';

/** A write waiting in the edit review, split into hunks: the file as it is (baseline) against the proposal. */
export interface ProposedFileReview {
  readonly writeId: string;
  readonly versions: FileVersions;
  /** The file's text the write was proposed against (the editor decorates only that text). */
  readonly current: string | null;
  /** Indexes of the hunks not decided yet. */
  readonly open: readonly number[];
}

/**
 * Keep / Undo per hunk of a client write still waiting for review: each hunk's decision is held here until
 * every hunk has one, then the edit review gets its one answer — the whole write, none of it, or the mix
 * (the kept hunks of the proposal, the rest as the file was), byte-exact. The edit review stays the only
 * place a proposed write is accepted or refused, and the workspace file system the only writer (which checks
 * the file again before writing).
 */
export class ProposedWriteHunks implements Disposable {
  /** Per write waiting: the decision on each hunk decided so far. */
  private readonly decided = new Map<string, Map<number, 'keep' | 'undo'>>();
  private readonly changed = new Emitter<void>();
  private readonly subscription: Disposable;
  /** A write was proposed or settled, or one of its hunks decided: the decorations are drawn again. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly writes: ProposedWritesPort) {
    this.subscription = writes.onDidChange(() => {
      const waiting = new Set(writes.writes().map((write) => write.id));
      [...this.decided.keys()].filter((id) => !waiting.has(id)).forEach((id) => this.decided.delete(id));
      this.changed.fire();
    });
  }

  /** The paths with a write waiting. */
  paths(): string[] {
    return [...new Set(this.writes.writes().map((write) => write.path))];
  }

  /** The oldest write waiting on `path`, split (undefined: none waits, or it is binary or too large). */
  review(path: string): ProposedFileReview | undefined {
    const write = this.writes.writes().find((candidate) => candidate.path === path);
    if (write === undefined) {
      return undefined;
    }
    const encode = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'utf8'));
    const split = splitHunks(
      write.current === null ? undefined : encode(write.current),
      encode(write.proposed),
    );
    if ('refused' in split) {
      return undefined;
    }
    const decided = this.decided.get(write.id);
    const open = split.hunks.map((_, index) => index).filter((index) => !decided?.has(index));
    return { writeId: write.id, versions: split, current: write.current, open };
  }

  /**
   * Decides hunk `index` of the write waiting on `path`; the last decision answers the edit review.
   * `shown`: the hunk as the editor showed it — if the write shown is no longer the one waiting, nothing is done.
   */
  decide(path: string, index: number, how: 'keep' | 'undo', shown?: Hunk): void {
    const review = this.review(path);
    const hunk = review?.versions.hunks[index];
    if (
      review === undefined ||
      hunk === undefined ||
      !review.open.includes(index) ||
      (shown !== undefined && !sameHunk(hunk, shown))
    ) {
      this.changed.fire();
      throw new Error('That proposed change is no longer waiting: the changes are shown again.');
    }
    const decided = this.decided.get(review.writeId) ?? new Map<number, 'keep' | 'undo'>();
    decided.set(index, how);
    this.decided.set(review.writeId, decided);
    if (decided.size === review.versions.hunks.length) {
      this.decided.delete(review.writeId);
      this.writes.settle(review.writeId, decisionOf(review.versions, decided));
    }
    this.changed.fire();
  }

  /** Decides every hunk left of the write waiting on `path` at once. */
  decideAll(path: string, how: 'keep' | 'undo'): void {
    const review = this.review(path);
    if (review === undefined) {
      throw new Error('No proposed change waits on this file.');
    }
    review.open.forEach((index) => this.decide(path, index, how));
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

/** The edit review's answer once every hunk is decided: all kept, none kept, or the mix's text. */
function decisionOf(
  versions: FileVersions,
  decided: ReadonlyMap<number, 'keep' | 'undo'>,
): ProposedWriteDecision {
  const kept = new Set([...decided].filter(([, how]) => how === 'keep').map(([index]) => index));
  if (kept.size === versions.hunks.length) {
    return 'keep';
  }
  if (kept.size === 0) {
    return 'undo';
  }
  return { partly: Buffer.from(mixHunks(versions, kept)).toString('utf8') };
}
