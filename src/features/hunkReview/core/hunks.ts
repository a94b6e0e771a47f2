import { looksBinary } from '../../../core/files/binaryContent';
import { patienceDiff } from './patienceDiff';

/**
 * One change of a file between two versions (its baseline — the checkpoint before the turn, moved by
 * each hunk kept — and now), by lines. Line numbers are 0-based; a hunk that only removes lines has
 * `after.count` 0 and sits before line `after.start` of the file now.
 */
export interface Hunk {
  readonly before: { readonly start: number; readonly count: number };
  readonly after: { readonly start: number; readonly count: number };
}

/** Two versions of a file, split into lines that keep their own endings (`\n`, `\r\n`, none at the end). */
export interface FileVersions {
  readonly baseline: readonly string[];
  readonly now: readonly string[];
  readonly hunks: readonly Hunk[];
}

/** Why a file is not split into hunks: the change card alone covers it. */
export type NotSplit = { readonly refused: 'binary' | 'too large' };

/** A file larger than this (either side) is left to the change card: its diff would stall the editor. */
export const MAX_HUNK_FILE_BYTES = 4 * 1024 * 1024;
/** So is a file with more lines than this. */
export const MAX_HUNK_FILE_LINES = 100_000;

/**
 * A file's lines as bytes kept one for one (latin1: every byte is one character), each with its own
 * ending, so that joining them gives back exactly the bytes — a BOM, `\r\n`, a missing final newline
 * and invalid UTF-8 included.
 */
export function linesOf(bytes: Uint8Array): string[] {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const lines: string[] = [];
  let start = 0;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
    lines.push(text.slice(start, end + 1));
    start = end + 1;
  }
  if (start < text.length) {
    lines.push(text.slice(start));
  }
  return lines;
}

/** The bytes of `lines` (from `linesOf`), exactly. */
export function bytesOf(lines: readonly string[]): Uint8Array {
  return new Uint8Array(Buffer.from(lines.join(''), 'latin1'));
}

/** A line as the user reads it (UTF-8, without its ending), for a hover or a screen reader. */
export function lineText(line: string): string {
  return Buffer.from(line.replace(/\r?\n$/, ''), 'latin1').toString('utf8');
}

/**
 * Splits the change from `baseline` (undefined: the file did not exist) to `now` (undefined: deleted)
 * into hunks; binary and over-size files are refused (the card handles them).
 */
export function splitHunks(
  baseline: Uint8Array | undefined,
  now: Uint8Array | undefined,
): FileVersions | NotSplit {
  const sides = [baseline ?? new Uint8Array(), now ?? new Uint8Array()];
  if (sides.some((side) => side.byteLength > MAX_HUNK_FILE_BYTES)) {
    return { refused: 'too large' };
  }
  if (sides.some((side) => looksBinary(side))) {
    return { refused: 'binary' };
  }
  const [before, after] = sides.map(linesOf) as [string[], string[]];
  if (before.length > MAX_HUNK_FILE_LINES || after.length > MAX_HUNK_FILE_LINES) {
    return { refused: 'too large' };
  }
  return { baseline: before, now: after, hunks: hunksBetween(before, after) };
}

/** The hunks between two line lists: each run of removed and added lines between unchanged ones. */
export function hunksBetween(before: readonly string[], after: readonly string[]): Hunk[] {
  const hunks: Hunk[] = [];
  let beforeLine = 0;
  let afterLine = 0;
  let open: { before: { start: number; count: number }; after: { start: number; count: number } } | undefined;
  for (const { kind, count } of patienceDiff(before, after)) {
    if (kind === 'same') {
      if (open) {
        hunks.push(open);
        open = undefined;
      }
      beforeLine += count;
      afterLine += count;
      continue;
    }
    open ??= { before: { start: beforeLine, count: 0 }, after: { start: afterLine, count: 0 } };
    if (kind === 'removed') {
      open.before.count += count;
      beforeLine += count;
    } else {
      open.after.count += count;
      afterLine += count;
    }
  }
  if (open) {
    hunks.push(open);
  }
  return hunks;
}

/** The file now with hunk `index` undone: its lines as they are in the baseline, every other line as now. */
export function undoHunk(versions: FileVersions, index: number): Uint8Array {
  const hunk = hunkAt(versions, index);
  return spliced(versions.now, hunk.after, versions.baseline, hunk.before);
}

/** The baseline with hunk `index` kept: its lines as they are now, every other line as in the baseline. */
export function keepHunk(versions: FileVersions, index: number): Uint8Array {
  const hunk = hunkAt(versions, index);
  return spliced(versions.baseline, hunk.before, versions.now, hunk.after);
}

type LineRun = Hunk['before'];

/** `outer` with its lines `replaced` swapped for the lines `by` of `inner`, as bytes. */
function spliced(
  outer: readonly string[],
  replaced: LineRun,
  inner: readonly string[],
  by: LineRun,
): Uint8Array {
  return bytesOf([
    ...outer.slice(0, replaced.start),
    ...inner.slice(by.start, by.start + by.count),
    ...outer.slice(replaced.start + replaced.count),
  ]);
}

/** Lines added and removed over all hunks (what the change card counts). */
export function countLines(hunks: readonly Hunk[]): { added: number; removed: number } {
  return hunks.reduce(
    (sum, hunk) => ({ added: sum.added + hunk.after.count, removed: sum.removed + hunk.before.count }),
    { added: 0, removed: 0 },
  );
}

function hunkAt(versions: FileVersions, index: number): Hunk {
  const hunk = versions.hunks[index];
  if (hunk === undefined) {
    throw new Error(`There is no change ${index + 1} in this file (it has ${versions.hunks.length}).`);
  }
  return hunk;
}
