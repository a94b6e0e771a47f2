/**
 * Fuzzy matching for the @-mention picker, keyboard first: the query's characters must appear in
 * order (case-insensitive); matches at the start of the name, after a separator or at a camelCase
 * hump, and runs of consecutive characters score higher, and a match in the file name beats one
 * only in its folders. Pure and allocation-light; the workspace's files are ranked by ./pathRanker,
 * which scores exactly as `fuzzyPathScore` does with the lower-casing done once.
 */

/** The score of `query` against `text` (higher is better), or undefined when it does not match. */
export function fuzzyScore(query: string, text: string): number | undefined {
  if (query === '') {
    return 0;
  }
  return scoreFrom(query.toLowerCase(), text, text.toLowerCase(), 0);
}

/**
 * `fuzzyScore` of a lower-cased, non-empty query against `text` from index `start` on (its file name),
 * given `text` lower-cased: the ranker (./pathRanker) calls it with both made once, not per keystroke.
 * `lowerText` must have `text`'s indices (as for ASCII, or when `text` is the part being scored).
 */
export function scoreFrom(
  lowerQuery: string,
  text: string,
  lowerText: string,
  start: number,
): number | undefined {
  const steps = matchSteps(lowerQuery, 0, text, lowerText, start, start - 2, 0);
  // Shorter candidates are closer to what was typed.
  return steps < 0 ? undefined : steps - (text.length - start) * 0.01;
}

/**
 * `steps` plus what `lowerQuery`'s characters from `q` on add (stepScore), each found greedily in
 * `lowerText` after the one before at `previous` (`start - 2`: none yet, the search starts at `start`);
 * -1 when one is not there. The ranker (./pathRanker) goes on from where a folder's part left off.
 */
export function matchSteps(
  lowerQuery: string,
  q: number,
  text: string,
  lowerText: string,
  start: number,
  previous: number,
  steps: number,
): number {
  let sum = steps;
  let at = previous;
  for (let next = q; next < lowerQuery.length; next++) {
    const found = lowerText.indexOf(lowerQuery.charAt(next), Math.max(start, at + 1));
    if (found < 0) {
      return -1;
    }
    sum += stepScore(text, start, found, at);
    at = found;
  }
  return sum;
}

/**
 * What one character of the query adds, matched at `found` after the one before at `previous`: a run,
 * the start of the name, a separator or camelCase hump before it. Shared with the ranker's typing-on
 * path (./pathRanker), which scores a character at a time.
 */
export function stepScore(text: string, start: number, found: number, previous: number): number {
  let score = 1;
  if (found === previous + 1) {
    score += 5; // a run of consecutive characters
  }
  if (found === start) {
    score += 8;
  } else if (isSeparator(text.charCodeAt(found - 1))) {
    score += 6;
  } else if (isUpper(text.charCodeAt(found)) && !isUpper(text.charCodeAt(found - 1))) {
    score += 4;
  }
  return score;
}

/** `/ \ . - _`, space and `:`. */
function isSeparator(code: number): boolean {
  return (
    code === 47 || code === 92 || code === 46 || code === 45 || code === 95 || code === 32 || code === 58
  );
}

function isUpper(code: number): boolean {
  return code >= 65 && code <= 90;
}

/**
 * The score of `query` against a path: the file name counts most, the whole path is the fallback
 * (so "src/hel" finds src/hello.ts, and "hel" prefers hello.ts over help/x.ts).
 */
export function fuzzyPathScore(query: string, path: string): number | undefined {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const name = path.slice(slash + 1);
  const inName = fuzzyScore(query, name);
  if (inName !== undefined) {
    return inName + 100 + (name.toLowerCase().startsWith(query.toLowerCase()) ? 50 : 0);
  }
  return fuzzyScore(query, path);
}

/** The `limit` best of `items` for `query` by `score`, best first; ties keep the input order. */
export function rankBy<T>(
  items: readonly T[],
  query: string,
  score: (query: string, item: T) => number | undefined,
  limit: number,
): T[] {
  const scored: { item: T; score: number; index: number }[] = [];
  items.forEach((item, index) => {
    const value = score(query, item);
    if (value !== undefined) {
      scored.push({ item, score: value, index });
    }
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.slice(0, limit).map((entry) => entry.item);
}
