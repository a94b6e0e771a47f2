import { fuzzyPathScore, matchSteps, scoreFrom, stepScore } from './fuzzyRank';

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
 * A query as the bound reads it: its lower case, its first character, the charBit of each and of all,
 * and the most any path can score with it in a name that does not start with its first character, and
 * in a whole path (the length's share left out).
 */
interface QueryShape {
  readonly lower: string;
  readonly first: number;
  readonly bits: Int32Array;
  readonly mask: number;
  readonly nameCeiling: number;
  readonly pathCeiling: number;
}

function queryShape(lower: string): QueryShape {
  const bits = new Int32Array(lower.length);
  let mask = 0;
  for (let q = 0; q < lower.length; q++) {
    bits[q] = charBit(lower.charCodeAt(q));
    mask |= bits[q] as number;
  }
  const shape = { lower, first: lower.charCodeAt(0), bits, mask, nameCeiling: 0, pathCeiling: 0 };
  const steps = stepsBound(shape, 0, -1);
  return { ...shape, nameCeiling: steps + 100, pathCeiling: steps + 8 };
}

/**
 * The most the query's characters from `q` on can add (stepScore) where the characters that can have a
 * bonus are `bonus`, none at the text's start: 1 each, +5 for a run (after the first of the query), +6
 * (the largest bonus but the start's) where the character is in `bonus`. A character without a bit
 * (space, `:`, others) may have a bonus anywhere.
 */
function stepsBound(query: QueryShape, q: number, bonus: number): number {
  let steps = 0;
  for (let next = q; next < query.bits.length; next++) {
    const bit = query.bits[next] as number;
    steps += (next === 0 ? 1 : 6) + (bit === 0 || (bit & bonus) !== 0 ? 6 : 0);
  }
  return steps;
}

/**
 * Per keystroke, per folder (the part of a path before its name, shared by the paths in it): how many of
 * the query's characters were found there greedily, what they added and where the last one was. A
 * path's match goes on from there in its name, so the folder is searched once, not once per file.
 */
interface FolderMatches {
  readonly reached: Int32Array;
  readonly steps: Int32Array;
  readonly at: Int32Array;
}

/**
 * Ranks a large, fixed list of paths for the @-mention picker exactly as `rankBy(paths, query,
 * fuzzyPathScore, limit)` would (same scores, same order, ties in list order), within a keystroke at
 * 200,000 paths. Most paths cannot reach the best `limit` kept so far, and a cheap upper bound on their
 * score says so without matching them:
 * - worked out once per path: its lower case, where its name starts, its folder (an id shared with the
 *   paths before it in the same folder), which characters its name and whole path hold (a path lacking
 *   one of the query's is passed over) and which of them can earn a bonus (after a separator, a camelCase
 *   hump; the name's first character apart);
 * - per keystroke, a path whose name holds the query's characters is bounded by 100 + its characters'
 *   best steps, less its length's share (as the score); in its whole path, by what its folder's part
 *   scored (searched once per folder) plus the rest's best steps in the name. Only a path whose bound
 *   beats the worst of the best kept is matched, with the same steps as fuzzyPathScore;
 * - paths are offered in list order, so a tie with a kept one loses, as in rankBy;
 * - a query that extends the previous one (typing on) looks only at the paths not ruled out for it.
 * Non-ASCII paths and queries are scored by `fuzzyPathScore` itself (lower-casing can change lengths).
 */
export class PathRanker {
  /** Each path lower-cased: the same string when it already was (no copy). */
  private readonly lower: string[];
  private readonly nameStart: Int32Array;
  private readonly folder: Int32Array;
  private readonly folders: number;
  private readonly pathMask: Int32Array;
  private readonly nameMask: Int32Array;
  /** The characters that can earn a bonus in the name (its first one apart: it is worth 8 there). */
  private readonly nameBonus: Int32Array;
  /** The lower-cased first character of the name (0: the path is not ASCII, scored whole). */
  private readonly nameFirst: Uint8Array;
  /** The paths not ruled out for the previous query (a path that does not match it cannot match more). */
  private last: { lowerQuery: string; candidates: Int32Array } | undefined;

  constructor(readonly paths: readonly string[]) {
    const count = paths.length;
    this.lower = new Array<string>(count);
    this.nameStart = new Int32Array(count);
    this.folder = new Int32Array(count);
    this.pathMask = new Int32Array(count);
    this.nameMask = new Int32Array(count);
    this.nameBonus = new Int32Array(count);
    this.nameFirst = new Uint8Array(count);
    let folders = 0;
    for (let i = 0; i < count; i++) {
      const path = paths[i] as string;
      const lower = path.toLowerCase();
      const start = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1;
      this.lower[i] = lower === path ? path : lower;
      this.nameStart[i] = start;
      this.folder[i] =
        i > 0 && sameFolder(paths[i - 1] as string, this.nameStart[i - 1] as number, path, start)
          ? folders - 1
          : folders++;
      let dirMask = 0;
      for (let c = 0; c < start; c++) {
        dirMask |= charBit(lower.charCodeAt(c));
      }
      let nameMask = 0;
      let nameBonus = 0;
      for (let c = start; c < lower.length; c++) {
        const bit = charBit(lower.charCodeAt(c));
        nameMask |= bit;
        if (c > start && stepScore(path, start, c, c) > 1) {
          nameBonus |= bit;
        }
      }
      this.pathMask[i] = dirMask | nameMask;
      this.nameMask[i] = nameMask;
      this.nameBonus[i] = nameBonus;
      this.nameFirst[i] = start < lower.length && isAscii(path) ? lower.charCodeAt(start) : 0;
    }
    this.folders = folders;
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
    const from = last !== undefined && lowerQuery.startsWith(last.lowerQuery) ? last.candidates : undefined;
    const shape = queryShape(lowerQuery);
    const folders: FolderMatches = {
      reached: new Int32Array(this.folders).fill(-1),
      steps: new Int32Array(this.folders),
      at: new Int32Array(this.folders),
    };
    const count = from?.length ?? this.paths.length;
    const candidates = new Int32Array(count);
    let kept = 0;
    // What a path must beat, once the best are full (kept here: read per path).
    let worst = best.full ? best.worst : NaN;
    for (let c = 0; c < count; c++) {
      const i = from === undefined ? c : (from[c] as number);
      if (((this.pathMask[i] as number) & shape.mask) !== shape.mask) {
        continue;
      }
      if (!Number.isNaN(worst) && this.cannotBeat(i, shape, folders, worst)) {
        candidates[kept++] = i; // not matched: it may match a longer query
        continue;
      }
      const score = this.score(i, shape, folders);
      if (score !== undefined) {
        candidates[kept++] = i;
        if (best.beats(score) && exclude?.(i) !== true) {
          best.offer(i, score);
          worst = best.full ? best.worst : NaN;
        }
      }
    }
    this.last = { lowerQuery, candidates: candidates.subarray(0, kept) };
    return best.indices();
  }

  /** Forgets the previous query: the next one looks at every path (tests, the bench). */
  forget(): void {
    this.last = undefined;
  }

  /** `fuzzyPathScore(query, path)` for path `i`, with its lower case, name start and folder's part made once. */
  private score(i: number, query: QueryShape, folders: FolderMatches): number | undefined {
    const path = this.paths[i] as string;
    if (this.nameFirst[i] === 0) {
      return fuzzyPathScore(query.lower, path);
    }
    const lower = this.lower[i] as string;
    const start = this.nameStart[i] as number;
    if (((this.nameMask[i] as number) & query.mask) === query.mask) {
      const inName = scoreFrom(query.lower, path, lower, start);
      if (inName !== undefined) {
        return inName + 100 + (lower.startsWith(query.lower, start) ? 50 : 0);
      }
    }
    const folder = this.searchFolder(i, query, folders);
    const steps = matchSteps(
      query.lower,
      folders.reached[folder] as number,
      path,
      lower,
      0,
      folders.at[folder] as number,
      folders.steps[folder] as number,
    );
    return steps < 0 ? undefined : steps - path.length * 0.01;
  }

  /**
   * Whether path `i` cannot score above `worst`, from a bound on its score worked out cheaply: first one
   * that holds for any path (QueryShape's ceilings), then its own — each part in the score's order of
   * operations, so that rounding keeps the bound at least as high as the score.
   */
  private cannotBeat(i: number, query: QueryShape, folders: FolderMatches, worst: number): boolean {
    const nameFirst = this.nameFirst[i] as number;
    if (nameFirst === 0) {
      return false; // not ASCII: scored whole
    }
    const inName = ((this.nameMask[i] as number) & query.mask) === query.mask;
    const prefix = inName && nameFirst === query.first;
    if ((prefix ? Infinity : inName ? query.nameCeiling : query.pathCeiling) <= worst) {
      return true;
    }
    const path = this.paths[i] as string;
    if (inName) {
      const nameLength = path.length - (this.nameStart[i] as number);
      const bonus = this.nameBonus[i] as number;
      // The name starting with the query's first character: 9 for it, maybe 50 for the whole query.
      const name = prefix
        ? stepsBound(query, 1, bonus) + 9 - nameLength * 0.01 + 100 + 50
        : stepsBound(query, 0, bonus) - nameLength * 0.01 + 100;
      if (name > worst) {
        return false;
      }
    }
    const folder = this.searchFolder(i, query, folders);
    // The rest is found in the name, whose first character follows a separator (or starts the path: +8).
    const rest = (this.nameBonus[i] as number) | charBit(nameFirst);
    const atStart = this.nameStart[i] === 0 ? 8 : 0;
    const inPath =
      (folders.steps[folder] as number) +
      stepsBound(query, folders.reached[folder] as number, rest) +
      atStart -
      path.length * 0.01;
    return inPath <= worst;
  }

  /** The folder of path `i`, its part searched for the query (once per folder and keystroke). */
  private searchFolder(i: number, query: QueryShape, folders: FolderMatches): number {
    const folder = this.folder[i] as number;
    if ((folders.reached[folder] as number) >= 0) {
      return folder;
    }
    const path = this.paths[i] as string;
    const lower = this.lower[i] as string;
    const end = this.nameStart[i] as number;
    let steps = 0;
    let at = -2;
    let q = 0;
    for (; q < query.lower.length; q++) {
      const found = lower.indexOf(query.lower.charAt(q), at + 1);
      if (found < 0 || found >= end) {
        break;
      }
      steps += stepScore(path, 0, found, at);
      at = found;
    }
    folders.reached[folder] = q;
    folders.steps[folder] = steps;
    folders.at[folder] = at;
    return folder;
  }
}

/** Whether two paths, with their names starting at these indices, are in the same folder. */
function sameFolder(before: string, beforeStart: number, path: string, start: number): boolean {
  if (beforeStart !== start) {
    return false;
  }
  for (let c = start - 1; c >= 0; c--) {
    if (before.charCodeAt(c) !== path.charCodeAt(c)) {
      return false;
    }
  }
  return true;
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

  /** The lowest score kept (when full: what a path must beat). */
  get worst(): number {
    return this.size === 0 ? -Infinity : (this.score[this.size - 1] as number);
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
