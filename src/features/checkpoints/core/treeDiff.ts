import type { TreeFileChange } from '../../../core/git/treeDiff';
import { isSkipped } from './skipList';

export { diffTreeArgs, parseRawAndNumstat } from '../../../core/git/treeDiff';

/** One file that differs between two trees of a folder, with what the checkpoints knew of it. */
export interface TreeChange extends TreeFileChange {
  /** Created, but ignored (so not recorded) at the earlier checkpoint: it may have existed then. */
  readonly beforeUnknown?: boolean;
  /** It was being written while the earlier checkpoint read it: its bytes then are not known. */
  readonly unsure?: boolean;
  /** It was there at the earlier checkpoint, which could not record it: its bytes then are not known. */
  readonly unrecorded?: boolean;
  /** It is a symbolic link (a deleted one: it was), naming `target` as written. */
  readonly link?: { readonly target: string };
}

/** What the checkpoints at both ends of a diff recorded about the files they did not snapshot whole. */
export interface DiffEnds {
  /** Left out at the earlier checkpoint (too large, a link, a nested repository, unreadable rules). */
  readonly skippedBefore: ReadonlySet<string> | 'unknown';
  /** Ignored at the earlier checkpoint (an ignored folder as `dir/`). */
  readonly ignoredBefore: ReadonlySet<string> | 'unknown';
  /** Being written while the earlier checkpoint read them. */
  readonly unsureBefore: ReadonlySet<string> | 'unknown';
  /**
   * There at the earlier checkpoint but not recorded (git could not read them), and the folders whose
   * entries changed while it read them (ending in `/`; `''` for the root: anything absent there is not
   * known to have been absent); `unknown` also when the checkpoint does not say — one made before it
   * accounted for every file, or whose list is lost.
   */
  readonly unrecordedBefore: ReadonlySet<string> | 'unknown';
  /** Left out at the later checkpoint (or now). */
  readonly skippedAfter: ReadonlySet<string> | 'unknown';
}

/**
 * What the earlier checkpoint knew of a file it has no bytes of: seen absent, ignored then (it may have
 * existed), or not known — it was there unrecorded, being written, left out, or the checkpoint cannot say.
 */
function earlierState(rel: string, ends: DiffEnds): 'absent' | 'ignored' | 'written' | 'unrecorded' {
  const listed = (set: ReadonlySet<string> | 'unknown') => set === 'unknown' || isSkipped(rel, set);
  const unsteadyRoot = ends.unrecordedBefore !== 'unknown' && ends.unrecordedBefore.has('');
  if (unsteadyRoot || listed(ends.unrecordedBefore) || listed(ends.skippedBefore)) {
    return 'unrecorded';
  }
  if (listed(ends.unsureBefore)) {
    return 'written';
  }
  return listed(ends.ignoredBefore) ? 'ignored' : 'absent';
}

/**
 * A diff of two checkpoints, told only what is known. A file is created only where the earlier
 * checkpoint positively saw it absent: it accounts for every file that existed (its tree and its lists),
 * and the file is in none of its lists. One ignored then may have existed; one left out (too large, a
 * link), unrecorded or being written then existed with bytes not known (modified, unsure); the files of a
 * folder left out then are not listed. A file of a folder left out later is not deleted (its files were
 * taken out of the snapshot, not off the disk).
 */
export function whatIsKnown(changes: readonly TreeChange[], ends: DiffEnds): TreeChange[] {
  const foldersAfter = new Set(
    ends.skippedAfter === 'unknown' ? [] : [...ends.skippedAfter].filter((rel) => rel.endsWith('/')),
  );
  const foldersBefore =
    ends.skippedBefore === 'unknown'
      ? new Set<string>()
      : new Set([...ends.skippedBefore].filter((rel) => rel.endsWith('/')));
  return (
    changes
      .filter((change) => change.kind !== 'deleted' || !isSkipped(change.rel, foldersAfter))
      // A folder left out then (a nested repository, unreadable rule files) was not looked into: its files
      // are not listed, as the card says of such folders.
      .filter((change) => change.kind !== 'created' || !isSkipped(change.rel, foldersBefore))
      .map((change): TreeChange => {
        if (change.kind !== 'created') {
          const written = ends.unsureBefore === 'unknown' || isSkipped(change.rel, ends.unsureBefore);
          return written ? { ...change, unsure: true } : change;
        }
        switch (earlierState(change.rel, ends)) {
          case 'absent':
            return change;
          case 'ignored':
            return { ...change, beforeUnknown: true };
          case 'written':
            return { ...change, kind: 'modified', unsure: true };
          case 'unrecorded':
            return { ...change, kind: 'modified', unrecorded: true };
        }
      })
  );
}
