import type { TreeFileChange } from '../../../core/git/treeDiff';
import { isSkipped } from './skipList';

export { diffTreeArgs, parseRawAndNumstat } from '../../../core/git/treeDiff';

/** One file that differs between two trees of a folder, with what the checkpoints knew of it. */
export interface TreeChange extends TreeFileChange {
  /** Created, but ignored (so not recorded) at the earlier checkpoint: it may have existed then. */
  readonly beforeUnknown?: boolean;
  /** It was being written while the earlier checkpoint read it: its bytes then are not known. */
  readonly unsure?: boolean;
}

/** What the checkpoints at both ends of a diff recorded about the files they did not snapshot whole. */
export interface DiffEnds {
  /** Left out at the earlier checkpoint (too large, a link, a nested repository, unreadable rules). */
  readonly skippedBefore: ReadonlySet<string> | 'unknown';
  /** Ignored at the earlier checkpoint (an ignored folder as `dir/`). */
  readonly ignoredBefore: ReadonlySet<string> | 'unknown';
  /** Being written while the earlier checkpoint read them. */
  readonly unsureBefore: ReadonlySet<string> | 'unknown';
  /** Left out at the later checkpoint (or now). */
  readonly skippedAfter: ReadonlySet<string> | 'unknown';
}

/**
 * A diff of two checkpoints, told only what is known: a file left out earlier and snapshotted now is
 * not created (listing it would let Undo delete what was there), nor is a file of a folder left out
 * later deleted (its files were taken out of the snapshot, not off the disk); a file ignored earlier
 * may have existed then, and one the earlier checkpoint was unsure of has unknown earlier bytes.
 */
export function whatIsKnown(changes: readonly TreeChange[], ends: DiffEnds): TreeChange[] {
  const skippedBefore = ends.skippedBefore === 'unknown' ? new Set<string>() : ends.skippedBefore;
  const foldersAfter = new Set(
    ends.skippedAfter === 'unknown' ? [] : [...ends.skippedAfter].filter((rel) => rel.endsWith('/')),
  );
  const known = (set: ReadonlySet<string> | 'unknown', rel: string): boolean =>
    set === 'unknown' || isSkipped(rel, set);
  return changes
    .filter((change) => change.kind !== 'created' || !isSkipped(change.rel, skippedBefore))
    .filter((change) => change.kind !== 'deleted' || !isSkipped(change.rel, foldersAfter))
    .map((change) => {
      if (change.kind === 'created') {
        return known(ends.ignoredBefore, change.rel) ? { ...change, beforeUnknown: true } : change;
      }
      return known(ends.unsureBefore, change.rel) ? { ...change, unsure: true } : change;
    });
}
