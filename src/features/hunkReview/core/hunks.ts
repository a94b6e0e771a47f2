import { createHash } from 'node:crypto';
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

/**
 * The baseline with the hunks in `kept` taken from now and every other hunk left out: what lands when part
 * of a proposed write is kept. Byte-exact: lines keep their own endings.
 */
export function mixHunks(versions: FileVersions, kept: ReadonlySet<number>): Uint8Array {
  const lines: string[] = [];
  let at = 0;
  versions.hunks.forEach((hunk, index) => {
    lines.push(...versions.baseline.slice(at, hunk.before.start));
    const [from, run] = kept.has(index) ? [versions.now, hunk.after] : [versions.baseline, hunk.before];
    lines.push(...from.slice(run.start, run.start + run.count));
    at = hunk.before.start + hunk.before.count;
  });
  lines.push(...versions.baseline.slice(at));
  return bytesOf(lines);
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

/** Whether two hunks cover the same lines (a hunk as shown is still the one there). */
export function sameHunk(a: Hunk, b: Hunk): boolean {
  return (
    a.before.start === b.before.start &&
    a.before.count === b.before.count &&
    a.after.start === b.after.start &&
    a.after.count === b.after.count
  );
}

/**
 * A name for each hunk by what it removes and adds (and which of the hunks alike it is), so that a kept
 * hunk is known again after a reload, wherever it moved: the same in every diff of the file that has it.
 */
export function hunkKeys(versions: FileVersions): string[] {
  const seen = new Map<string, number>();
  return versions.hunks.map((hunk) => {
    const content = createHash('sha256')
      .update(
        versions.baseline.slice(hunk.before.start, hunk.before.start + hunk.before.count).join(''),
        'latin1',
      )
      .update('\0')
      .update(versions.now.slice(hunk.after.start, hunk.after.start + hunk.after.count).join(''), 'latin1')
      .digest('hex')
      .slice(0, 32);
    const alike = seen.get(content) ?? 0;
    seen.set(content, alike + 1);
    return `${content}.${alike}`;
  });
}

/** The baseline with the hunks named in `keys` (`hunkKeys`) kept: what the review compares the file with. */
export function keptBaseline(versions: FileVersions, keys: ReadonlySet<string>): Uint8Array {
  const names = hunkKeys(versions);
  return mixHunks(versions, new Set(names.flatMap((name, index) => (keys.has(name) ? [index] : []))));
}
