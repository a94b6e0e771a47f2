import { lineText, type FileVersions, type Hunk } from './hunks';

/** What the editor shows of one hunk, in lines of the file now (0-based). */
export interface HunkView {
  readonly index: number;
  readonly hunk: Hunk;
  /** The added lines' range (inclusive), when it adds any. */
  readonly added?: { readonly first: number; readonly last: number };
  /** The line the hunk is anchored on (its CodeLens, the removed lines' marker, navigation). */
  readonly anchor: number;
  /** The removed lines as the user reads them (for a hover and a screen reader). */
  readonly removed: readonly string[];
}

/** The editor's view of every hunk of a file: where it is, what it added, what it removed. */
export function hunkViews(versions: FileVersions): HunkView[] {
  const lastLine = Math.max(0, versions.now.length - 1);
  return versions.hunks.map((hunk, index) => ({
    index,
    hunk,
    ...(hunk.after.count > 0
      ? { added: { first: hunk.after.start, last: hunk.after.start + hunk.after.count - 1 } }
      : {}),
    anchor: Math.min(hunk.after.start, lastLine),
    removed: versions.baseline.slice(hunk.before.start, hunk.before.start + hunk.before.count).map(lineText),
  }));
}

/** What a screen reader says on arriving at a hunk: "Change 3 of 12, 4 lines added, 1 removed". */
export function describeHunk(hunk: Hunk, position: number, total: number): string {
  const parts = [
    ...(hunk.after.count > 0
      ? [`${hunk.after.count} ${hunk.after.count === 1 ? 'line' : 'lines'} added`]
      : []),
    ...(hunk.before.count > 0 ? [`${hunk.before.count} removed`] : []),
  ];
  return `Change ${position} of ${total}, ${parts.join(', ')}`;
}

/**
 * What the editor shows of one hunk of a write still waiting for review, in lines of the file as it is
 * (0-based): the write has not landed, so the lines it removes are there and the ones it adds are not.
 */
export interface ProposedHunkView {
  readonly index: number;
  readonly hunk: Hunk;
  /** The lines the write would remove (inclusive), when it removes any. */
  readonly removed?: { readonly first: number; readonly last: number };
  /** The line of its CodeLens and of the note on the lines it adds (after them, or above where they go). */
  readonly anchor: number;
  /** The lines the write would add, as the user reads them (for the note's hover). */
  readonly added: readonly string[];
}

/** The editor's view of the hunks `open` of a proposed write (baseline: the file as it is; now: the proposal). */
export function proposedHunkViews(versions: FileVersions, open: readonly number[]): ProposedHunkView[] {
  const lastLine = Math.max(0, versions.baseline.length - 1);
  return open.flatMap((index) => {
    const hunk = versions.hunks[index];
    if (hunk === undefined) {
      return [];
    }
    const { before, after } = hunk;
    return [
      {
        index,
        hunk,
        ...(before.count > 0
          ? { removed: { first: before.start, last: before.start + before.count - 1 } }
          : {}),
        anchor: Math.min(before.count > 0 ? before.start : Math.max(0, before.start - 1), lastLine),
        added: versions.now.slice(after.start, after.start + after.count).map(lineText),
      },
    ];
  });
}
