import picomatch from 'picomatch';

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

/**
 * Whether a path (`/` separators, relative to the workspace folder) is excluded by one of `patterns`,
 * read as VS Code reads `files.exclude`: a pattern that names a folder excludes everything in it.
 */
export function excludeMatcher(patterns: readonly string[]): (relativePath: string) => boolean {
  if (patterns.length === 0) {
    return () => false;
  }
  const matches = picomatch([...patterns], { dot: true });
  const folderVerdicts = new Map<string, boolean>();
  return (relativePath) => {
    const parts = relativePath.split('/');
    for (let depth = 1; depth < parts.length; depth += 1) {
      const folder = parts.slice(0, depth).join('/');
      let verdict = folderVerdicts.get(folder);
      if (verdict === undefined) {
        verdict = matches(folder);
        folderVerdicts.set(folder, verdict);
      }
      if (verdict) {
        return true;
      }
    }
    return matches(relativePath);
  };
}
