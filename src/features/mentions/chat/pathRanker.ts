import { fuzzyPathScore, scoreFrom } from './fuzzyRank';

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
 * Ranks a large, fixed list of paths for the @-mention picker exactly as `rankBy(paths, query,
 * fuzzyPathScore, limit)` would (same scores, same order, ties in list order), within a keystroke at
 * 200,000 paths:
 * - each path's lower case, file-name start and letters are worked out once, not per keystroke;
 * - a path lacking one of the query's letters is passed over without scoring it;
 * - a query that extends the previous one (typing on) scores only the previous one's matches — a path
 *   that does not match "ab" cannot match "abc";
 * - only the best `limit` are kept while scoring: no sort of every match.
 * Non-ASCII paths and queries are scored by `fuzzyPathScore` itself (lower-casing can change lengths).
 */
export class PathRanker {
  /** Each path lower-cased: the same string when it already was (no copy). */
  private readonly lower: string[];
  private readonly nameStart: Int32Array;
  private readonly masks: Int32Array;
  private readonly ascii: Uint8Array;
  private last: { lowerQuery: string; matches: Int32Array } | undefined;

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
    if (query === '') {
      // Every path scores the same (see fuzzyPathScore): the first ones, in list order.
      for (let i = 0; i < this.paths.length && !best.full; i++) {
        if (exclude?.(i) !== true) {
          best.offer(i, 0);
        }
      }
      this.last = undefined;
      return best.indices();
    }
    const lowerQuery = query.toLowerCase();
    const queryMask = charMask(lowerQuery);
    const fast = isAscii(query);
    const last = this.last;
    const candidates =
      last !== undefined && lowerQuery.startsWith(last.lowerQuery) ? last.matches : undefined;
    const count = candidates?.length ?? this.paths.length;
    const matches = new Int32Array(count);
    let matched = 0;
    for (let c = 0; c < count; c++) {
      const i = candidates === undefined ? c : (candidates[c] as number);
      if (((this.masks[i] as number) & queryMask) !== queryMask) {
        continue;
      }
      const score =
        fast && this.ascii[i] === 1
          ? this.scoreAscii(lowerQuery, i)
          : fuzzyPathScore(query, this.paths[i] as string);
      if (score === undefined) {
        continue;
      }
      matches[matched++] = i;
      if (best.beats(score) && exclude?.(i) !== true) {
        best.offer(i, score);
      }
    }
    this.last = { lowerQuery, matches: matches.slice(0, matched) };
    return best.indices();
  }

  /** Forgets the previous query: the next one scores every path (tests, the bench). */
  forget(): void {
    this.last = undefined;
  }

  /** `fuzzyPathScore` of an ASCII query against the ASCII path `i`, from what was worked out once. */
  private scoreAscii(lowerQuery: string, i: number): number | undefined {
    const path = this.paths[i] as string;
    const lower = this.lower[i] as string;
    const start = this.nameStart[i] as number;
    const inName = scoreFrom(lowerQuery, path, lower, start);
    if (inName !== undefined) {
      return inName + 100 + (lower.startsWith(lowerQuery, start) ? 50 : 0);
    }
    return scoreFrom(lowerQuery, path, lower, 0);
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
