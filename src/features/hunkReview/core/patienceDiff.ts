import { diffArrays } from 'diff';

/** A run of lines in a line diff: the same on both sides, only before (removed), or only after (added). */
export interface LineRun {
  readonly kind: 'same' | 'removed' | 'added';
  readonly count: number;
}

/**
 * Past this many lines a stretch between anchors is not diffed line by line (Myers' cost grows with its
 * length times its differences): it counts as all removed and added — still exact, only coarser.
 */
const MAX_STRETCH_LINES = 20_000;

/**
 * A line diff as git's `--patience` makes it: lines that occur once on each side anchor the match (the
 * longest run of them in the same order), and only the stretches between anchors are diffed with Myers
 * (jsdiff). A 5,000-line file with 200 changes then costs a few small diffs instead of one whose
 * O((N+M)·D) work stalls the editor, and hunks follow the code's own unique lines.
 */
export function patienceDiff(before: readonly string[], after: readonly string[]): LineRun[] {
  const runs: LineRun[] = [];
  const push = (kind: LineRun['kind'], count: number): void => {
    const last = runs.at(-1);
    if (count === 0) {
      return;
    }
    if (last?.kind === kind) {
      runs[runs.length - 1] = { kind, count: last.count + count };
    } else {
      runs.push({ kind, count });
    }
  };
  let b = 0;
  let a = 0;
  const anchors: [number, number][] = [...uniqueAnchors(before, after), [before.length, after.length]];
  for (const [anchorBefore, anchorAfter] of anchors) {
    diffStretch(before.slice(b, anchorBefore), after.slice(a, anchorAfter), push);
    if (anchorBefore < before.length) {
      push('same', 1);
    }
    b = anchorBefore + 1;
    a = anchorAfter + 1;
  }
  return runs;
}

/** The lines between two anchors: Myers (jsdiff), or all removed and added past the bound. */
function diffStretch(
  before: readonly string[],
  after: readonly string[],
  push: (kind: LineRun['kind'], count: number) => void,
): void {
  if (before.length + after.length > MAX_STRETCH_LINES) {
    push('removed', before.length);
    push('added', after.length);
    return;
  }
  for (const part of diffArrays(before as string[], after as string[])) {
    push(part.added ? 'added' : part.removed ? 'removed' : 'same', part.count ?? part.value.length);
  }
}

/**
 * Pairs (line before, line after) of the lines that occur exactly once on each side, the longest run of
 * them in the same order on both (patience sorting: O(n log n)).
 */
function uniqueAnchors(before: readonly string[], after: readonly string[]): [number, number][] {
  const seen = new Map<string, { before: number; after: number; at: number; atAfter: number }>();
  before.forEach((line, index) => {
    const entry = seen.get(line);
    seen.set(line, { before: (entry?.before ?? 0) + 1, after: 0, at: index, atAfter: -1 });
  });
  after.forEach((line, index) => {
    const entry = seen.get(line);
    if (entry !== undefined) {
      entry.after++;
      entry.atAfter = index;
    }
  });
  const pairs: [number, number][] = [];
  for (const entry of seen.values()) {
    if (entry.before === 1 && entry.after === 1) {
      pairs.push([entry.at, entry.atAfter]);
    }
  }
  pairs.sort((x, y) => x[0] - y[0]);
  return longestIncreasing(pairs);
}

/** The longest subsequence of `pairs` (sorted by their first number) whose second numbers increase. */
function longestIncreasing(pairs: readonly [number, number][]): [number, number][] {
  const tails: number[] = []; // index into pairs of the smallest tail of an increasing run of each length
  const previous = new Int32Array(pairs.length).fill(-1);
  pairs.forEach(([, after], index) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (pairs[tails[middle]!]![1] < after) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    previous[index] = low > 0 ? tails[low - 1]! : -1;
    tails[low] = index;
  });
  const run: [number, number][] = [];
  for (let index = tails.at(-1) ?? -1; index !== -1; index = previous[index]!) {
    run.push(pairs[index]!);
  }
  return run.reverse();
}
