import type { Thread } from '../../../core/thread/thread';
import type { Turn, TurnFileChange } from '../../../core/thread/threadTypes';
import { Emitter, type Disposable } from '../../../core/util/disposable';
import { SerialQueue } from '../../../core/util/serialQueue';
import {
  bytesOf,
  countLines,
  hunkKeys,
  hunksBetween,
  keptBaseline,
  linesOf,
  sameHunk,
  splitHunks,
  undoHunk,
  type FileVersions,
  type Hunk,
  type NotSplit,
} from '../core/hunks';
import type { CurrentContent, TurnChangesPort } from './hunkReviewPorts';

/** The turn whose changes the editor shows: the latest finished one with files still to decide. */
export interface ReviewedTurn {
  readonly chatId: string;
  readonly thread: Thread;
  readonly turnId: string;
}

/** A file of the reviewed turn as the editor shows it: its hunks against its baseline, or why none. */
export type FileReview = { readonly path: string } & (FileVersions | NotSplit);

/**
 * Keep / Undo per hunk of the latest turn's changes. A file's baseline is the checkpoint before the turn,
 * moved by every hunk kept (kept hunks no longer show); its hunks are the baseline against the file now.
 * Which hunks were kept is the card's (`TurnFileChange.keptHunks`, journaled with the chat), so they stay
 * kept after a reload. Undo writes through the change card's Undo (`TurnChangesPort.undoPart`), never
 * itself; once nothing is left to decide, the card's row is marked kept or undone. One action at a time.
 */
export class HunkReview implements Disposable {
  private reviewed: ReviewedTurn | undefined;
  private readonly queue = new SerialQueue();
  private readonly changed = new Emitter<void>();
  /** The reviewed turn or its files changed: the editor's decorations are computed again. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly changes: TurnChangesPort,
    private readonly current: CurrentContent,
  ) {}

  /** A turn changed: a finished one with files to decide becomes the reviewed turn; its card's changes show. */
  turnChanged(chatId: string, thread: Thread, turn: Turn): void {
    const finished = turn.status !== 'running' && turn.changes !== undefined && !turn.changes.live;
    const same = this.reviewed?.thread === thread && this.reviewed.turnId === turn.id;
    if (finished && (same || pendingFiles(turn).length > 0)) {
      this.reviewed = { chatId, thread, turnId: turn.id };
      this.changed.fire();
    } else if (same && !finished) {
      this.forget();
    }
  }

  /** A chat is gone: its turn is no longer reviewed. */
  chatGone(chatId: string): void {
    if (this.reviewed?.chatId === chatId) {
      this.forget();
    }
  }

  /** The reviewed turn's files still to decide (not binary, not a link), in the card's order. */
  files(): TurnFileChange[] {
    const turn = this.reviewed && this.reviewed.thread.turn(this.reviewed.turnId);
    return turn ? pendingFiles(turn).filter((file) => !file.binary && file.link === undefined) : [];
  }

  /** `path`'s hunks now (empty when it is not among the files to decide). */
  async review(path: string): Promise<FileReview | undefined> {
    const reviewed = this.reviewed;
    const file = this.files().find((candidate) => candidate.path === path);
    if (reviewed === undefined || file === undefined) {
      return undefined;
    }
    const [before, current] = await Promise.all([
      file.kind === 'created' ? undefined : this.readBefore(reviewed, path),
      this.current(path),
    ]);
    const now = file.kind === 'deleted' ? undefined : current;
    const kept = new Set(file.keptHunks ?? []);
    const fromCheckpoint = splitHunks(before, now);
    if (kept.size === 0 || 'refused' in fromCheckpoint) {
      return { path, ...fromCheckpoint };
    }
    return { path, ...splitHunks(keptBaseline(fromCheckpoint, kept), now) };
  }

  /**
   * Keeps hunk `index` of `path`: it no longer shows; when none is left the card marks the file kept.
   * `shown`: the hunk as the editor showed it — if the file changed since, nothing is done.
   */
  keep(path: string, index: number, shown?: Hunk): Promise<void> {
    return this.queue.run(async () => {
      const { reviewed, versions } = await this.split(path, index, shown);
      if (versions.hunks.length === 1) {
        await this.changes.act(reviewed.thread, reviewed.turnId, 'keep', path);
      } else {
        const key = await this.keyOf(reviewed, path, versions, index);
        this.changes.keepPart(reviewed.thread, reviewed.turnId, path, key);
      }
      this.changed.fire();
    });
  }

  /** Undoes hunk `index` of `path` (through the card's Undo); the card's counts follow. `shown`: as `keep`. */
  undo(path: string, index: number, shown?: Hunk): Promise<void> {
    return this.queue.run(async () => {
      const { reviewed, versions } = await this.split(path, index, shown);
      const onlyOne = versions.hunks.length === 1;
      await this.write(reviewed, path, versions, undoHunk(versions, index), onlyOne);
      this.changed.fire();
    });
  }

  /** Keeps every hunk left of `path`. */
  keepAll(path: string): Promise<void> {
    return this.queue.run(async () => {
      const reviewed = this.need();
      await this.changes.act(reviewed.thread, reviewed.turnId, 'keep', path);
      this.changed.fire();
    });
  }

  /** Undoes every hunk left of `path`: back to its baseline (the checkpoint, when nothing was kept). */
  undoAll(path: string): Promise<void> {
    return this.queue.run(async () => {
      const { reviewed, versions } = await this.split(path);
      await this.write(reviewed, path, versions, bytesOf(versions.baseline), true);
      this.changed.fire();
    });
  }

  /** `path`'s diff (before the turn ↔ now) in the diff editor, where the accessible diff viewer works. */
  openDiff(path: string): Promise<void> {
    const reviewed = this.need();
    return this.changes.act(reviewed.thread, reviewed.turnId, 'diff', path);
  }

  dispose(): void {
    this.changed.dispose();
  }

  /**
   * Writes `bytes` (the file with hunks undone); `last`: nothing will be left to decide. Nothing kept:
   * the file's own Undo (a created file is deleted again); else part of it, and the card counts anew.
   */
  private async write(
    reviewed: ReviewedTurn,
    path: string,
    versions: FileVersions,
    bytes: Uint8Array,
    last: boolean,
  ): Promise<void> {
    if (last && this.files().find((file) => file.path === path)?.keptHunks === undefined) {
      await this.changes.act(reviewed.thread, reviewed.turnId, 'undo', path);
      return;
    }
    const before = await this.readBefore(reviewed, path);
    const counts = countLines(hunksBetween(linesOf(before ?? new Uint8Array()), linesOf(bytes)));
    const from = bytesOf(versions.now);
    const written = await this.changes.undoPart(reviewed.thread, reviewed.turnId, path, {
      bytes,
      from,
      counts,
    });
    if (written && last) {
      await this.changes.act(reviewed.thread, reviewed.turnId, 'keep', path);
    }
  }

  private async split(
    path: string,
    index?: number,
    shown?: Hunk,
  ): Promise<{ reviewed: ReviewedTurn; versions: FileVersions }> {
    const reviewed = this.need();
    const review = await this.review(path);
    if (review === undefined) {
      throw new Error('This file has no changes left to decide.');
    }
    if ('refused' in review) {
      throw new Error(`This file is ${review.refused}: keep or undo it on the change card.`);
    }
    const hunk = index === undefined ? undefined : review.hunks[index];
    if (index !== undefined && (hunk === undefined || (shown !== undefined && !sameHunk(hunk, shown)))) {
      this.changed.fire();
      throw new Error('The file changed since its changes were shown: they are shown again.');
    }
    return { reviewed, versions: review };
  }

  private need(): ReviewedTurn {
    if (this.reviewed === undefined) {
      throw new Error('There are no changes to review.');
    }
    return this.reviewed;
  }

  /**
   * The name of hunk `index` of `versions` (against the baseline moved by the kept ones) as the hunk of the
   * checkpoint's diff it is: the one with the same lines in the file now.
   */
  private async keyOf(
    reviewed: ReviewedTurn,
    path: string,
    versions: FileVersions,
    index: number,
  ): Promise<string> {
    const file = this.files().find((candidate) => candidate.path === path);
    const before = file?.kind === 'created' ? undefined : await this.readBefore(reviewed, path);
    const fromCheckpoint = splitHunks(before, bytesOf(versions.now));
    const hunk = versions.hunks[index];
    const at =
      'refused' in fromCheckpoint || hunk === undefined
        ? -1
        : fromCheckpoint.hunks.findIndex(
            (candidate) =>
              candidate.after.start === hunk.after.start && candidate.after.count === hunk.after.count,
          );
    if ('refused' in fromCheckpoint || at === -1) {
      throw new Error(
        'This change cannot be kept on its own (it joins another one): keep the file on the change card.',
      );
    }
    return hunkKeys(fromCheckpoint)[at] as string;
  }

  private readBefore(reviewed: ReviewedTurn, path: string): Promise<Uint8Array | undefined> {
    const checkpointId = reviewed.thread.turn(reviewed.turnId)?.checkpointId;
    if (checkpointId === undefined) {
      throw new Error('This turn has no checkpoint to compare with.');
    }
    return this.changes.read(checkpointId, path);
  }

  private forget(): void {
    this.reviewed = undefined;
    this.changed.fire();
  }
}

function pendingFiles(turn: Turn): TurnFileChange[] {
  return (turn.changes?.files ?? []).filter((file) => file.decision === 'pending');
}
