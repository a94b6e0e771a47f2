/**
 * Patterns of a `files.exclude`-shaped setting that are on. `when` clauses (hide x.js next to x.ts)
 * need the sibling's presence, which a glob cannot say: those files stay offered.
 */
export function enabledPatterns(setting: unknown): string[] {
  if (typeof setting !== 'object' || setting === null) {
    return [];
  }
  return Object.entries(setting)
    .filter(([, value]) => value === true)
    .map(([pattern]) => pattern)
    .filter((pattern) => !/[{}]/.test(pattern));
}

/** One exclude glob for `findFiles` out of many patterns (undefined when there are none). */
export function combineGlobs(patterns: readonly string[]): string | undefined {
  const unique = [...new Set(patterns)];
  if (unique.length === 0) {
    return undefined;
  }
  return unique.length === 1 ? unique[0] : `{${unique.join(',')}}`;
}
