import { fuzzyPathScore, stepScore } from './fuzzyRank';

/** Letters a–z, one bit for the digits, one each for `.`, the slashes and `-`/`_`: a query needs them all. */
function charBit(code: number): number {
  if (code >= 97 && code <= 122) {
    return 1 << (code - 97);
  }
  if (code >= 48 && code <= 57) {
    return 1 << 26;
  }
  switch (code) {
    case 46:
      return 1 << 27;
    case 47:
    case 92:
      return 1 << 28;
    case 45:
    case 95:
      return 1 << 29;
    default:
      return 0;
  }
}

function charMask(lower: string): number {
  let mask = 0;
  for (let i = 0; i < lower.length; i++) {
    mask |= charBit(lower.charCodeAt(i));
  }
  return mask;
}

/** The first index of `code` in `text` from `from` on, or -1 (as `indexOf`; a loop is quicker for a character). */
function find(text: string, code: number, from: number): number {
  for (let t = from; t < text.length; t++) {
    if (text.charCodeAt(t) === code) {
      return t;
    }
  }
  return -1;
}

/** Whether every character of `text` is ASCII (lower-casing it then keeps its length and indices). */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 127) {
      return false;
    }
  }
  return true;
}

/**
 * The matches of a query so far, one entry per matching path: where its characters were last found
 * and the score they add up to, in the whole path and in the file name (`nameScore` -1: not in the
 * name), and whether the name starts with the query. One more character costs a search from there.
 */
interface Matches {
  readonly ids: Int32Array;
  readonly pathAt: Int32Array;
  readonly pathScore: Int32Array;
  readonly nameAt: Int32Array;
  readonly nameScore: Int32Array;
  readonly prefix: Uint8Array;
}

/**
 * Ranks a large, fixed list of paths for the @-mention picker exactly as `rankBy(paths, query,
 * fuzzyPathScore, limit)` would (same scores, same order, ties in list order), within a keystroke at
 * 200,000 paths:
 * - each path's lower case and file-name start are worked out once, not per keystroke;
 * - a path lacking one of the query's letters is passed over at once;
 * - a query that extends the previous one (typing on) goes on from the previous one's matches, where
 *   each one's characters were found: one search per path and character typed (fuzzyScore matches
 *   greedily, character by character, so the score adds up the same way — `stepScore`);
 * - only the best `limit` are kept: no sort of every match.
 * Non-ASCII paths and queries are scored by `fuzzyPathScore` itself (lower-casing can change lengths).
 */
export class PathRanker {
  /** Each path lower-cased: the same string when it already was (no copy). */
  private readonly lower: string[];
  private readonly nameStart: Int32Array;
  private readonly masks: Int32Array;
  private readonly ascii: Uint8Array;
  private last: { lowerQuery: string; matches: Matches } | undefined;

  constructor(readonly paths: readonly string[]) {
    const count = paths.length;
    this.lower = new Array<string>(count);
    this.nameStart = new Int32Array(count);
    this.masks = new Int32Array(count);
    this.ascii = new Uint8Array(count);
    for (let i = 0; i < count; i++) {
      const path = paths[i] as string;
      const lower = path.toLowerCase();
      this.lower[i] = lower === path ? path : lower;
      this.nameStart[i] = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1;
      this.masks[i] = charMask(lower);
      this.ascii[i] = isAscii(path) ? 1 : 0;
    }
  }

  /**
   * The indices of the `limit` best paths for `query`, best first. `exclude` leaves a path out as if it
   * were not in the list (asked only of paths good enough to be shown).
   */
  rank(query: string, limit: number, exclude?: (index: number) => boolean): number[] {
    const best = new TopScores(limit);
    const offer = (index: number, score: number): void => {
      if (best.beats(score) && exclude?.(index) !== true) {
        best.offer(index, score);
      }
    };
    const lowerQuery = query.toLowerCase();
    if (query === '' || !isAscii(query)) {
      this.last = undefined;
      for (let i = 0; i < this.paths.length && !(query === '' && best.full); i++) {
        // An empty query: every path scores the same (see fuzzyPathScore), the first ones are shown.
        const score = query === '' ? 0 : fuzzyPathScore(query, this.paths[i] as string);
        if (score !== undefined) {
          offer(i, score);
        }
      }
      return best.indices();
    }
    const last = this.last;
    const typingOn = last !== undefined && lowerQuery.startsWith(last.lowerQuery);
    let matches = typingOn ? last.matches : undefined;
    const queryMask = charMask(lowerQuery);
    for (let q = typingOn ? last.lowerQuery.length : 0; q < lowerQuery.length; q++) {
      matches = this.advance(matches, lowerQuery, q, queryMask);
    }
    if (matches === undefined) {
      return best.indices();
    }
    this.last = { lowerQuery, matches };
    for (let m = 0; m < matches.ids.length; m++) {
      const score = this.scoreOf(matches, m, lowerQuery);
      if (best.beats(score)) {
        const i = matches.ids[m] as number;
        if (exclude?.(i) !== true) {
          best.offer(i, score);
        }
      }
    }
    return best.indices();
  }

  /** Forgets the previous query: the next one looks at every path (tests, the bench). */
  forget(): void {
    this.last = undefined;
  }

  /** The matches of `lowerQuery`'s first `q + 1` characters, from those of its first `q` (all paths). */
  private advance(from: Matches | undefined, lowerQuery: string, q: number, queryMask: number): Matches {
    const count = from?.ids.length ?? this.paths.length;
    const next: Matches = {
      ids: new Int32Array(count),
      pathAt: new Int32Array(count),
      pathScore: new Int32Array(count),
      nameAt: new Int32Array(count),
      nameScore: new Int32Array(count),
      prefix: new Uint8Array(count),
    };
    const code = lowerQuery.charCodeAt(q);
    let kept = 0;
    for (let m = 0; m < count; m++) {
      const i = from === undefined ? m : (from.ids[m] as number);
      if (((this.masks[i] as number) & queryMask) !== queryMask) {
        continue;
      }
      const path = this.paths[i] as string;
      if (this.ascii[i] === 0) {
        // Scored whole at the end; kept while the query so far matches.
        if (fuzzyPathScore(lowerQuery.slice(0, q + 1), path) !== undefined) {
          next.ids[kept++] = i;
        }
        continue;
      }
      const lower = this.lower[i] as string;
      const start = this.nameStart[i] as number;
      // Where the query's characters so far were found: before any, the search starts at 0 (the
      // path) or at the name's start, and "the one before" is two back, as in scoreFrom.
      const pathAt = from === undefined ? -2 : (from.pathAt[m] as number);
      const found = find(lower, code, pathAt < 0 ? 0 : pathAt + 1);
      if (found < 0) {
        continue;
      }
      next.ids[kept] = i;
      next.pathAt[kept] = found;
      next.pathScore[kept] =
        (from === undefined ? 0 : (from.pathScore[m] as number)) + stepScore(path, 0, found, pathAt);
      const nameScore = from === undefined ? 0 : (from.nameScore[m] as number);
      const nameAt = from === undefined ? start - 2 : (from.nameAt[m] as number);
      const inName = nameScore < 0 ? -1 : find(lower, code, nameAt < start ? start : nameAt + 1);
      if (inName < 0) {
        next.nameScore[kept] = -1;
      } else {
        next.nameAt[kept] = inName;
        next.nameScore[kept] = nameScore + stepScore(path, start, inName, nameAt);
        next.prefix[kept] = (from === undefined || from.prefix[m] === 1) && inName === start + q ? 1 : 0;
      }
      kept++;
    }
    return {
      ids: next.ids.subarray(0, kept),
      pathAt: next.pathAt.subarray(0, kept),
      pathScore: next.pathScore.subarray(0, kept),
      nameAt: next.nameAt.subarray(0, kept),
      nameScore: next.nameScore.subarray(0, kept),
      prefix: next.prefix.subarray(0, kept),
    };
  }

  /** `fuzzyPathScore(query, path)` of match `m`, from where its characters were found (see scoreFrom). */
  private scoreOf(matches: Matches, m: number, lowerQuery: string): number {
    const i = matches.ids[m] as number;
    const path = this.paths[i] as string;
    if (this.ascii[i] === 0) {
      return fuzzyPathScore(lowerQuery, path) as number;
    }
    const nameScore = matches.nameScore[m] as number;
    if (nameScore >= 0) {
      const inName = nameScore - (path.length - (this.nameStart[i] as number)) * 0.01;
      return inName + 100 + (matches.prefix[m] === 1 ? 50 : 0);
    }
    return (matches.pathScore[m] as number) - path.length * 0.01;
  }
}

/** The best `limit` (index, score) pairs offered in index order, best first; a tie keeps the earlier. */
class TopScores {
  private readonly index: Int32Array;
  private readonly score: Float64Array;
  private size = 0;

  constructor(private readonly limit: number) {
    const capacity = Math.max(0, limit);
    this.index = new Int32Array(capacity);
    this.score = new Float64Array(capacity);
  }

  get full(): boolean {
    return this.size >= this.limit;
  }

  /** Whether `score` would be kept (offered after every kept one: a tie loses). */
  beats(score: number): boolean {
    return this.size < this.limit || score > (this.score[this.size - 1] as number);
  }

  offer(index: number, score: number): void {
    if (!this.beats(score)) {
      return;
    }
    let at = Math.min(this.size, this.limit - 1);
    while (at > 0 && (this.score[at - 1] as number) < score) {
      this.index[at] = this.index[at - 1] as number;
      this.score[at] = this.score[at - 1] as number;
      at--;
    }
    this.index[at] = index;
    this.score[at] = score;
    this.size = Math.min(this.size + 1, this.limit);
  }

  indices(): number[] {
    return Array.from(this.index.subarray(0, this.size));
  }
}

/** Every folder the files are in, each once, parents after their first child. */
export function folderPaths(files: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const file of files) {
    let slash = file.lastIndexOf('/');
    while (slash > 0) {
      const folder = file.slice(0, slash);
      if (folders.has(folder)) {
        break;
      }
      folders.add(folder);
      slash = folder.lastIndexOf('/');
    }
  }
  return [...folders];
}
