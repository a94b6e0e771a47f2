/**
 * A `.gitignore` as glob patterns for `workspace.findFiles`'s exclude (VS Code 1.95 has no stable
 * API that applies ignore files to `findFiles`). Covers what ignore files mostly hold: names,
 * wildcards, anchored paths ("/dist"), directory-only entries ("out/") and "**". Negations ("!x")
 * cannot be expressed as an exclude and are skipped: such a file stays hidden from the picker,
 * which is the safe side.
 */
export function gitignoreToGlobs(content: string): string[] {
  const globs: string[] = [];
  for (const raw of content.split(/\r?\n/)) {
    const line = raw.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#') || line.startsWith('!')) {
      continue;
    }
    let pattern = line.replace(/^\\([#!])/, '$1');
    const directoryOnly = pattern.endsWith('/');
    pattern = pattern.replace(/\/+$/, '');
    // A slash at the start or in the middle anchors the pattern to the ignore file's folder.
    const anchored = pattern.includes('/');
    pattern = pattern.replace(/^\/+/, '');
    if (pattern === '' || /[{}]/.test(pattern)) {
      continue; // braces would break the combined glob
    }
    const base = anchored || pattern.startsWith('**/') ? pattern : `**/${pattern}`;
    globs.push(`${base}/**`);
    if (!directoryOnly) {
      globs.push(base);
    }
  }
  return globs;
}

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
