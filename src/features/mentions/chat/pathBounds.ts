// The cheap upper bounds by which PathRanker passes over paths that cannot make the best shown: what is
// worked out once per path (letter, bonus and pair masks, folders) and once per keystroke (QueryShape,
// each folder's part). See PathRanker.

/** Letters a–z, three bits for the digits, one each for `.`, the slashes and `-`/`_`: a query needs them all. */
export function charBit(code: number): number {
  if (code >= 97 && code <= 122) {
    return 1 << (code - 97);
  }
  if (code >= 48 && code <= 57) {
    return code <= 51 ? 1 << 26 : code <= 54 ? 1 << 30 : 1 << 31;
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

/** One bit per digit (0 for any other character). */
export function digitBit(code: number): number {
  return code >= 48 && code <= 57 ? 1 << (code - 48) : 0;
}

/** Whether every character of `text` is ASCII (lower-casing it then keeps its length and indices). */
export function isAscii(text: string): boolean {
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
export interface QueryShape {
  readonly lower: string;
  readonly first: number;
  readonly bits: Int32Array;
  /** The pairBit of each character with the one before (0 for the first), and of all. */
  readonly pairs: Int32Array;
  readonly mask: number;
  readonly pairMask: number;
  /** Its first four characters as namePrefix packs them, and the bits they take there. */
  readonly prefix: number;
  readonly prefixMask: number;
  readonly nameCeiling: number;
  readonly pathCeiling: number;
}

/** The (ASCII) characters of `text` at `from` to `from + 3`, 7 bits each (0 past its end). */
export function packFour(text: string, from: number): number {
  let packed = 0;
  for (let c = 0; c < 4 && from + c < text.length; c++) {
    packed |= (text.charCodeAt(from + c) & 127) << (7 * c);
  }
  return packed;
}

/** One of 32 bits for two characters side by side (lower-cased): a run of the two needs the pair. */
export function pairBit(before: number, code: number): number {
  return 1 << (Math.imul(before * 128 + code, 0x9e3779b1) >>> 27);
}

export function queryShape(lower: string): QueryShape {
  const bits = new Int32Array(lower.length);
  const pairs = new Int32Array(lower.length);
  let mask = 0;
  let pairMask = 0;
  let steps = 0;
  for (let q = 0; q < lower.length; q++) {
    bits[q] = charBit(lower.charCodeAt(q));
    mask |= bits[q] as number;
    if (q > 0) {
      pairs[q] = pairBit(lower.charCodeAt(q - 1), lower.charCodeAt(q));
      pairMask |= pairs[q] as number;
    }
    steps += (q > 0 ? 6 : 1) + 6; // as stepsBound with every bonus and pair
  }
  const first = lower.charCodeAt(0);
  const prefix = packFour(lower, 0);
  const prefixMask = 2 ** (7 * Math.min(4, lower.length)) - 1;
  return {
    lower,
    first,
    bits,
    pairs,
    mask,
    pairMask,
    prefix,
    prefixMask,
    nameCeiling: steps + 100,
    pathCeiling: steps + 8,
  };
}

/**
 * The most the query's characters from `q` on can add (stepScore) where the characters that can have a
 * bonus are `bonus` (`firstBonus` for the first of them, when it is searched from the text's start:
 * greedy matching takes its first occurrence) and the pairs side by side `pairs` (pairBit), none at
 * the text's start: 1 each, +5 for a run where the text has the pair (for the first of them, only if
 * `firstRun`: it may follow the one before), +6 (the largest bonus but the start's) where the character
 * can have one. A character without a bit
 * (space, `:`, others) may have a bonus anywhere.
 */
export function stepsBound(
  query: QueryShape,
  q: number,
  firstBonus: number,
  bonus: number,
  pairs: number,
  firstRun: boolean,
): number {
  let steps = 0;
  for (let next = q; next < query.bits.length; next++) {
    const bit = query.bits[next] as number;
    const run = next > 0 && (next > q || firstRun) && ((query.pairs[next] as number) & pairs) !== 0;
    steps += (run ? 6 : 1) + (bit === 0 || (bit & (next === q ? firstBonus : bonus)) !== 0 ? 6 : 0);
  }
  return steps;
}

/**
 * Per keystroke, per folder (the part of a path before its name, shared by the paths in it): how many of
 * the query's characters were found there greedily, what they added and where the last one was. A
 * path's match goes on from there in its name, so the folder is searched once, not once per file.
 */
export interface FolderMatches {
  readonly reached: Int32Array;
  readonly steps: Int32Array;
  readonly at: Int32Array;
  /** The most a path in the folder can score, its length's share left out. */
  readonly ceiling: Int32Array;
  /** The charBits of the query's characters left to find in the name. */
  readonly rest: Int32Array;
  /** The digits among them, one bit each (digitBit). */
  readonly restDigits: Int32Array;
}

/** How many of the shortest names and of the shortest paths are sampled first (each). */
export const SAMPLED = 1024;

/** The indices of the `take` items shortest by each of `lengths` (shortest first, ties in order), each once. */
export function shortest(count: number, take: number, ...lengths: ((index: number) => number)[]): Int32Array {
  const chosen = new Uint8Array(count);
  const picked: number[] = [];
  const longest = 1024; // longer ones are counted as this long
  for (const length of lengths) {
    const buckets = new Int32Array(longest + 1);
    for (let i = 0; i < count; i++) {
      const bucket = Math.min(length(i), longest);
      buckets[bucket] = (buckets[bucket] as number) + 1;
    }
    // The length up to which `take` are found, then those in order up to it.
    let upTo = 0;
    for (let found = 0; upTo < longest && found + (buckets[upTo] as number) < take; upTo++) {
      found += buckets[upTo] as number;
    }
    let taken = 0;
    for (let i = 0; i < count && taken < take; i++) {
      if (Math.min(length(i), longest) <= upTo) {
        taken++;
        if (chosen[i] === 0) {
          chosen[i] = 1;
          picked.push(i);
        }
      }
    }
  }
  return Int32Array.from(picked);
}

/** Whether two paths, with their names starting at these indices, are in the same folder. */
export function sameFolder(before: string, beforeStart: number, path: string, start: number): boolean {
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

/** How many of the query's first four characters a name starting as `namePrefix` (packFour) starts with. */
export function leadingMatch(query: QueryShape, namePrefix: number): number {
  const most = Math.min(4, query.lower.length);
  let leading = 0;
  while (leading < most && ((namePrefix >>> (7 * leading)) & 127) === query.lower.charCodeAt(leading)) {
    leading++;
  }
  return leading;
}

/**
 * The most the query's steps can add up to in a name whose first `leading` (≥ 1) characters are the
 * query's: those are found there, one after the other (9 for the start, then runs); the next one, when
 * the name's next character is known not to be it (fewer than four matched), is not a run.
 */
export function stepsFromStart(query: QueryShape, leading: number, bonus: number, pairs: number): number {
  let steps = 9;
  for (let q = 1; q < leading; q++) {
    const bit = query.bits[q] as number;
    steps += 6 + (bit === 0 || (bit & bonus) !== 0 ? 6 : 0);
  }
  if (leading >= query.lower.length) {
    return steps;
  }
  if (leading === 4) {
    return steps + stepsBound(query, 4, bonus, bonus, pairs, true);
  }
  const bit = query.bits[leading] as number;
  steps += 1 + (bit === 0 || (bit & bonus) !== 0 ? 6 : 0);
  return steps + stepsBound(query, leading + 1, bonus, bonus, pairs, true);
}
