import { strict as assert } from 'node:assert';
import { patienceDiff } from '../../../src/features/hunkReview/core/patienceDiff';

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Lines from a small alphabet (many repeats, like `}` and blank lines) mixed with unique ones. */
function randomLines(next: () => number, length: number): string[] {
  return Array.from({ length }, (_, i) => (next() < 0.4 ? `repeat ${Math.floor(next() * 4)}` : `line ${i}`));
}

/** `before` edited at random: lines changed, removed, inserted. */
function edited(next: () => number, before: readonly string[]): string[] {
  const after: string[] = [];
  for (const line of before) {
    const roll = next();
    if (roll < 0.1) {
      after.push(`changed ${line}`);
    } else if (roll < 0.15) {
      continue;
    } else {
      after.push(line);
    }
    if (next() < 0.05) {
      after.push(next() < 0.5 ? 'repeat 1' : `inserted ${after.length}`);
    }
  }
  return after;
}

describe('hunk review: the patience line diff', () => {
  it('always rebuilds both sides exactly: same lines equal, every line used once (2,000 random edits)', () => {
    const next = random(29);
    for (let run = 0; run < 2_000; run++) {
      const before = randomLines(next, Math.floor(next() * 60));
      const after = next() < 0.1 ? randomLines(next, Math.floor(next() * 60)) : edited(next, before);
      let b = 0;
      let a = 0;
      for (const { kind, count } of patienceDiff(before, after)) {
        assert.ok(count > 0, `run ${run}: no empty run`);
        if (kind === 'same') {
          assert.deepEqual(before.slice(b, b + count), after.slice(a, a + count), `run ${run}: same lines`);
        }
        b += kind === 'added' ? 0 : count;
        a += kind === 'removed' ? 0 : count;
      }
      assert.deepEqual([b, a], [before.length, after.length], `run ${run}: every line used once`);
    }
  });

  it('anchors on the lines unique to both sides and diffs only the stretches between them', () => {
    const before = ['a', '}', 'b', '}', 'c', '}'];
    const after = ['a', '}', 'b', 'x', '}', 'c', '}'];
    assert.deepEqual(patienceDiff(before, after), [
      { kind: 'same', count: 3 },
      { kind: 'added', count: 1 },
      { kind: 'same', count: 3 },
    ]);
  });
});
