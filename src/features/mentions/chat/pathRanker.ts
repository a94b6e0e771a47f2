import { fuzzyPathScore, matchSteps, scoreFrom, stepScore } from './fuzzyRank';
import {
  charBit,
  digitBit,
  isAscii,
  leadingMatch,
  type QueryShape,
  packFour,
  pairBit,
  queryShape,
  stepsBound,
  stepsFromStart,
  type FolderMatches,
  SAMPLED,
  shortest,
  sameFolder,
} from './pathBounds';
import { TopScores } from './topScores';

/**
 * Ranks a large, fixed list of paths for the @-mention picker exactly as `rankBy(paths, query,
 * fuzzyPathScore, limit)` would (same scores, same order, ties in list order), within a keystroke at
 * 200,000 paths. Most paths cannot reach the best `limit` kept so far, and a cheap upper bound on their
 * score says so without matching them:
 * - worked out once per path (typed arrays): its lower case, where its name starts, its folder (an id
 *   shared with the paths before it in the same folder), which characters its name and whole path hold
 *   (a path lacking one of the query's is passed over), which can earn a bonus (after a separator, a
 *   camelCase hump; at their first occurrence, which greedy matching takes), which pairs stand side by
 *   side (a run needs one), the name's first four characters and its digits (pathBounds.ts);
 * - per keystroke, a path whose name holds the query's characters is bounded by 100 (+50 only if its
 *   first characters allow a prefix) + its characters' best steps, less its length's share (as the
 *   score); in its whole path, by what its folder's part scored (matched once per folder and keystroke)
 *   plus the rest's best steps in the name. Only a path whose bound beats the worst of the best kept is
 *   matched, with the same steps as fuzzyPathScore (and from where its folder's part left off);
 * - the worst to beat starts just under the worst of the best among the shortest names and paths
 *   (sampled first), which is at most the final one; after that paths are offered in list order, so a
 *   tie with a kept one loses, as in rankBy;
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
  /**
   * The characters whose first occurrence in the name can have a bonus (its first character's too: it
   * follows a separator in the whole path); greedy matching takes that one when it searches the name.
   */
  private readonly firstBonus: Int32Array;
  /** The name's first four characters lower-cased (packFour): a name starting with the query starts so. */
  private readonly namePrefix: Int32Array;
  /** The digits in the name, one bit each (charBit shares three among ten). */
  private readonly nameDigits: Uint16Array;
  /** The pairs side by side (pairBit) in the name, and of the separator before it with its first. */
  private readonly namePairs: Int32Array;
  private readonly length: Int32Array;
  /** The lower-cased first character of the name (0: the path is not ASCII, scored whole). */
  private readonly nameFirst: Uint8Array;
  /** The paths with the shortest names and the shortest paths, each once: they tend to score best. */
  private readonly sample: Int32Array;
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
    this.firstBonus = new Int32Array(count);
    this.namePrefix = new Int32Array(count);
    this.nameDigits = new Uint16Array(count);
    const seen = new Int32Array(128); // the path (i + 1) in which a character was last seen
    this.namePairs = new Int32Array(count);
    this.length = new Int32Array(count);
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
      let firstBonus = 0;
      let nameDigits = 0;
      let namePairs = 0;
      for (let c = start; c < lower.length; c++) {
        const code = lower.charCodeAt(c);
        const bit = charBit(code);
        nameMask |= bit;
        nameDigits |= digitBit(code);
        if (c > 0) {
          namePairs |= pairBit(lower.charCodeAt(c - 1), code);
        }
        const isBonus = c > start && stepScore(path, start, c, c) > 1;
        if (isBonus) {
          nameBonus |= bit;
        }
        if (code < 128 && seen[code] !== i + 1) {
          seen[code] = i + 1;
          firstBonus |= isBonus || c === start ? bit : 0;
        }
      }
      this.pathMask[i] = dirMask | nameMask;
      this.nameMask[i] = nameMask;
      this.nameBonus[i] = nameBonus;
      this.firstBonus[i] = firstBonus;
      this.namePrefix[i] = packFour(lower, start);
      this.nameDigits[i] = nameDigits;
      this.namePairs[i] = namePairs;
      this.length[i] = path.length;
      this.nameFirst[i] = start < lower.length && isAscii(path) ? lower.charCodeAt(start) : 0;
    }
    this.folders = folders;
    this.sample = shortest(
      count,
      SAMPLED,
      (i) => (this.length[i] as number) - (this.nameStart[i] as number),
      (i) => this.length[i] as number,
    );
  }

  /**
   * The indices of the `limit` best paths for `query`, best first. `exclude` leaves a path out as if it
   * were not in the list (asked only of paths good enough to be among the best so far).
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
      ceiling: new Int32Array(this.folders),
      rest: new Int32Array(this.folders),
      restDigits: new Int32Array(this.folders),
    };
    const count = from?.length ?? this.paths.length;
    const candidates = new Int32Array(count);
    let kept = 0;
    // What a path must beat to be kept (NaN: anything): the worst of the best so far once full, and
    // from the start just under the worst of the best among the shortest paths (the final worst is at
    // least that; "just under", so that a tie is never passed over).
    const floor = this.sampledFloor(shape, folders, limit, exclude);
    let worst = floor;
    const { mask, first, nameCeiling, pathCeiling } = shape;
    const { pathMask, nameMask, nameFirst } = this;
    for (let c = 0; c < count; c++) {
      const i = from === undefined ? c : (from[c] as number);
      if (((pathMask[i] as number) & mask) !== mask) {
        continue;
      }
      if (worst === worst) {
        // Full: first the bound any path has (QueryShape's ceilings), then the path's own.
        const nameCode = nameFirst[i] as number;
        const inName = ((nameMask[i] as number) & mask) === mask;
        const ceiling =
          nameCode === 0 || (inName && nameCode === first) ? Infinity : inName ? nameCeiling : pathCeiling;
        if (ceiling <= worst || this.cannotBeat(i, shape, folders, worst)) {
          candidates[kept++] = i; // not matched: it may match a longer query
          continue;
        }
      }
      const score = this.score(i, shape, folders);
      if (score !== undefined) {
        candidates[kept++] = i;
        if (best.beats(score) && exclude?.(i) !== true) {
          best.offer(i, score);
          worst = best.full && !(best.worst <= floor) ? best.worst : floor;
        }
      }
    }
    this.last = { lowerQuery, candidates: candidates.subarray(0, kept) };
    return best.indices();
  }

  /**
   * Just under the worst score of the best `limit` of the sampled paths (NaN when fewer match): the
   * final worst is at least that, so a path whose bound is below can be passed over from the start.
   */
  private sampledFloor(
    query: QueryShape,
    folders: FolderMatches,
    limit: number,
    exclude: ((index: number) => boolean) | undefined,
  ): number {
    const sampled = new TopScores(limit);
    for (const i of this.sample) {
      if (((this.pathMask[i] as number) & query.mask) === query.mask) {
        const score = this.score(i, query, folders);
        if (score !== undefined && sampled.beats(score) && exclude?.(i) !== true) {
          sampled.offer(i, score);
        }
      }
    }
    if (!sampled.full || limit <= 0) {
      return NaN;
    }
    const worst = sampled.worst;
    // Strictly below it whatever its magnitude (2^-50 of it is more than a rounding step).
    return worst - (Math.abs(worst) * 2 ** -50 + 2 ** -1000);
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
   * Whether path `i` cannot score above `worst`, from a bound on its score worked out cheaply from its
   * masks and its folder's part — each part in the score's order of operations, so that rounding keeps
   * the bound at least as high as the score.
   */
  private cannotBeat(i: number, query: QueryShape, folders: FolderMatches, worst: number): boolean {
    const nameFirst = this.nameFirst[i] as number;
    if (nameFirst === 0) {
      return false; // not ASCII: scored whole
    }
    const inName = ((this.nameMask[i] as number) & query.mask) === query.mask;
    const first = inName && nameFirst === query.first;
    const length = this.length[i] as number;
    const bonus = this.nameBonus[i] as number;
    const pairs = this.namePairs[i] as number;
    if (inName) {
      const nameLength = length - (this.nameStart[i] as number);
      // The name starting with the query's first character: what its first characters match exactly.
      const leading = first ? leadingMatch(query, this.namePrefix[i] as number) : 0;
      const name = first
        ? stepsFromStart(query, leading, bonus, pairs) -
          nameLength * 0.01 +
          100 +
          (leading === query.lower.length || (leading === 4 && (query.pairMask & pairs) === query.pairMask)
            ? 50
            : 0)
        : stepsBound(query, 0, this.firstBonus[i] as number, bonus, pairs, true) - nameLength * 0.01 + 100;
      if (name > worst) {
        return false;
      }
      if (query.pathCeiling <= worst) {
        return true; // its name did not match: its whole path cannot do better
      }
    }
    const folder = this.searchFolder(i, query, folders);
    const rest = folders.rest[folder] as number;
    const restDigits = folders.restDigits[folder] as number;
    if (
      ((this.nameMask[i] as number) & rest) !== rest ||
      ((this.nameDigits[i] as number) & restDigits) !== restDigits ||
      (folders.ceiling[folder] as number) - length * 0.01 <= worst
    ) {
      return true; // what the folder's part left to find is not all in the name, or cannot score enough
    }
    // The rest is found in the name, whose first character follows a separator (or starts the path: +8).
    const atStart = this.nameStart[i] === 0 ? 8 : 0;
    const inPath =
      (folders.steps[folder] as number) +
      stepsBound(
        query,
        folders.reached[folder] as number,
        this.firstBonus[i] as number,
        bonus,
        pairs,
        folders.at[folder] === (this.nameStart[i] as number) - 1,
      ) +
      atStart -
      length * 0.01;
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
    // The rest in the name: its first character can start the path (+8) or follow the separator.
    folders.ceiling[folder] = steps + stepsBound(query, q, -1, -1, -1, at === end - 1) + (end === 0 ? 8 : 0);
    let rest = 0;
    let restDigits = 0;
    for (let next = q; next < query.bits.length; next++) {
      rest |= query.bits[next] as number;
      restDigits |= digitBit(query.lower.charCodeAt(next));
    }
    folders.rest[folder] = rest;
    folders.restDigits[folder] = restDigits;
    return folder;
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
