/**
 * A line diff for the tool cards: jsdiff's Myers O((N+M)·D) diff of the lines left after trimming
 * the common prefix and suffix, grouped into unified hunks with context. Agent edits can be huge,
 * so the work is capped: past `maxEdits` differences, `maxLines` lines or `timeoutMs`, the middle
 * is shown as a plain replacement instead of a minimal diff, and the result says so.
 */
import { diffArrays } from 'diff';


export interface DiffLine {
  readonly kind: 'context' | 'add' | 'del';
  readonly text: string;
  /** 1-based line in the old text (context and deleted lines). */
  readonly oldNo?: number;
  /** 1-based line in the new text (context and added lines). */
  readonly newNo?: number;
}

export interface DiffHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly DiffLine[];
}

export interface LineDiff {
  readonly hunks: readonly DiffHunk[];
  readonly added: number;
  readonly removed: number;
  /** True when the caps were hit and the middle is shown as delete-all / add-all. */
  readonly approximate: boolean;
}

export interface DiffOptions {
  /** Unchanged lines shown around each change. */
  readonly context?: number;
  /** The largest edit distance searched for before giving up on a minimal diff. */
  readonly maxEdits?: number;
  /** Inputs with more lines than this (after trimming) are not diffed line by line. */
  readonly maxLines?: number;
  /**
   * Time allowed for the minimal diff, so one pathological edit cannot hold up the view's frame
   * (the edit-length cap bounds the work too, but a long frame is what a user sees).
   */
  readonly timeoutMs?: number;
}

type Op = 'eq' | 'add' | 'del';

/** Splits text into lines; a final newline does not make an extra empty line. */
export function splitLines(text: string): string[] {
  if (text === '') {
    return [];
  }
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') {
    lines.pop();
  }
  return lines;
}

/** Diffs `oldText` (null: a new file) against `newText`. */
export function diffLines(oldText: string | null, newText: string, options: DiffOptions = {}): LineDiff {
  const context = options.context ?? 3;
  const maxEdits = options.maxEdits ?? 2000;
  const maxLines = options.maxLines ?? 20_000;
  const a = splitLines(oldText ?? '');
  const b = splitLines(newText);

  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) {
    prefix++;
  }
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  ) {
    suffix++;
  }
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);

  let middle: Op[] | undefined;
  if (midA.length + midB.length <= maxLines) {
    middle = editScript(midA, midB, maxEdits, options.timeoutMs ?? 250);
  }
  const approximate = middle === undefined;
  middle ??= [...midA.map((): Op => 'del'), ...midB.map((): Op => 'add')];

  const ops: Op[] = [...Array<Op>(prefix).fill('eq'), ...middle, ...Array<Op>(suffix).fill('eq')];
  return { ...toHunks(ops, a, b, context), approximate };
}

/** The edit script from a to b, or undefined past `maxEdits` or `timeoutMs`. */
function editScript(a: string[], b: string[], maxEdits: number, timeoutMs: number): Op[] | undefined {
  if (a.length === 0 || b.length === 0) {
    // Pure insertion or deletion: nothing to search for.
    return [...a.map((): Op => 'del'), ...b.map((): Op => 'add')];
  }
  const changes = diffArrays(a, b, { maxEditLength: maxEdits, timeout: timeoutMs });
  if (changes === undefined) {
    return undefined;
  }
  const ops: Op[] = [];
  for (const change of changes) {
    const op: Op = change.added ? 'add' : change.removed ? 'del' : 'eq';
    for (let i = 0; i < change.count; i++) {
      ops.push(op);
    }
  }
  return ops;
}

function toHunks(
  ops: readonly Op[],
  a: readonly string[],
  b: readonly string[],
  context: number,
): Omit<LineDiff, 'approximate'> {
  const lines: DiffLine[] = [];
  let oldNo = 1;
  let newNo = 1;
  let added = 0;
  let removed = 0;
  for (const op of ops) {
    if (op === 'eq') {
      lines.push({ kind: 'context', text: a[oldNo - 1] ?? '', oldNo: oldNo++, newNo: newNo++ });
    } else if (op === 'del') {
      lines.push({ kind: 'del', text: a[oldNo - 1] ?? '', oldNo: oldNo++ });
      removed++;
    } else {
      lines.push({ kind: 'add', text: b[newNo - 1] ?? '', newNo: newNo++ });
      added++;
    }
  }

  const hunks: DiffHunk[] = [];
  let i = 0;
  while (i < lines.length) {
    while (i < lines.length && lines[i]?.kind === 'context') {
      i++;
    }
    if (i >= lines.length) {
      break;
    }
    const start = Math.max(0, i - context);
    let end = i;
    // Extend over changes separated by at most 2·context unchanged lines.
    for (;;) {
      while (end < lines.length && lines[end]?.kind !== 'context') {
        end++;
      }
      let gap = end;
      while (gap < lines.length && lines[gap]?.kind === 'context') {
        gap++;
      }
      if (gap < lines.length && gap - end <= 2 * context) {
        end = gap;
        continue;
      }
      end = Math.min(lines.length, end + context);
      break;
    }
    hunks.push(makeHunk(lines.slice(start, end)));
    i = end;
  }
  return { hunks, added, removed };
}

function makeHunk(lines: readonly DiffLine[]): DiffHunk {
  const firstOld = lines.find((line) => line.oldNo !== undefined)?.oldNo;
  const firstNew = lines.find((line) => line.newNo !== undefined)?.newNo;
  const oldLines = lines.filter((line) => line.kind !== 'add').length;
  const newLines = lines.filter((line) => line.kind !== 'del').length;
  return {
    // Unified-diff convention: a side with no lines starts at the line before.
    oldStart: firstOld ?? Math.max(0, (lines[0]?.newNo ?? 1) - 1),
    oldLines,
    newStart: firstNew ?? Math.max(0, (lines[0]?.oldNo ?? 1) - 1),
    newLines,
    lines,
  };
}
