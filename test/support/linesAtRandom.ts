/**
 * `count` texts, each of 2 to `spread + 1` lines drawn from `lines` by a seeded generator (the same texts every
 * run): the markdown tests' way of reaching combinations no one thought to write.
 */
export function textsOfLinesAtRandom(
  lines: readonly string[],
  count: number,
  seed: number,
  spread: number,
): string[] {
  let state = seed;
  const next = (below: number) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return Math.floor((state / 0x80000000) * below);
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 2 + next(spread) }, () => lines[next(lines.length)]).join('\n'),
  );
}
