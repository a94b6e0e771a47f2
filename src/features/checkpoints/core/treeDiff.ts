import { isSkipped } from './skipList';
import type { FileChangeKind } from './types';

/** One file that differs between two trees of a folder. */
export interface TreeChange {
  /** `/`-separated, relative to the folder. */
  readonly rel: string;
  readonly kind: FileChangeKind;
  readonly added: number;
  readonly removed: number;
  readonly binary: boolean;
  /** Created, but ignored (so not recorded) at the earlier checkpoint: it may have existed then. */
  readonly beforeUnknown?: boolean;
  /** It was being written while the earlier checkpoint read it: its bytes then are not known. */
  readonly unsure?: boolean;
}

/** A nested repository's entry: a commit of another repository, not a file. */
const GITLINK_MODE = '160000';

/** The arguments of `git diff-tree` that `parseRawAndNumstat` reads: every file, no rename pairing. */
export function diffTreeArgs(from: string, to: string): string[] {
  return [
    'diff-tree',
    '-r',
    '-z',
    '--no-renames',
    '--no-ext-diff',
    '--no-textconv',
    '--raw',
    '--numstat',
    from,
    to,
  ];
}

/**
 * Reads `diff-tree -z --raw --numstat`: first a raw record per file (`:mode mode sha sha STATUS`, then
 * the path), then a numstat record per file (`added<TAB>removed<TAB>path`, `-` for binary).
 */
export function parseRawAndNumstat(fields: readonly string[]): TreeChange[] {
  const kinds = new Map<string, FileChangeKind>();
  const counts = new Map<string, { added: number; removed: number; binary: boolean }>();
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    const raw = /^:(\d{6}) (\d{6}) [0-9a-f]+ [0-9a-f]+ ([A-Z])\d*$/.exec(field);
    if (raw) {
      const rel = fields[++i];
      const [, oldMode, newMode, status] = raw;
      if (rel === undefined || oldMode === GITLINK_MODE || newMode === GITLINK_MODE) {
        continue;
      }
      kinds.set(rel, status === 'A' ? 'created' : status === 'D' ? 'deleted' : 'modified');
      continue;
    }
    const numstat = /^(\d+|-)\t(\d+|-)\t([\s\S]*)$/.exec(field);
    if (numstat) {
      const [, added, removed, rel] = numstat;
      const binary = added === '-' || removed === '-';
      counts.set(rel!, { added: binary ? 0 : Number(added), removed: binary ? 0 : Number(removed), binary });
    }
  }
  return [...kinds].map(([rel, kind]) => ({
    rel,
    kind,
    ...(counts.get(rel) ?? { added: 0, removed: 0, binary: false }),
  }));
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
