import assert from 'node:assert/strict';
import { diffLines, splitLines, type LineDiff } from '../../webview/diff';

/** The diff as unified-diff text lines, for readable expectations. */
function unified(diff: LineDiff): string[] {
  return diff.hunks.flatMap((hunk) => [
    `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
    ...hunk.lines.map((line) => `${line.kind === 'add' ? '+' : line.kind === 'del' ? '-' : ' '}${line.text}`),
  ]);
}

/** Applies a diff's hunks to the old lines: must give the new lines. */
function apply(oldText: string, diff: LineDiff): string[] {
  const old = splitLines(oldText);
  const out: string[] = [];
  let at = 0;
  for (const hunk of diff.hunks) {
    const start = hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1;
    out.push(...old.slice(at, start));
    at = start;
    for (const line of hunk.lines) {
      if (line.kind !== 'add') {
        assert.equal(old[at], line.text);
        at++;
      }
      if (line.kind !== 'del') {
        out.push(line.text);
      }
    }
  }
  out.push(...old.slice(at));
  return out;
}

describe('webview diff (Myers line diff)', () => {
  it('finds a minimal change with context', () => {
    const diff = diffLines('a\nb\nc\nd\ne\n', 'a\nb\nC\nd\ne\n', { context: 1 });
    assert.deepEqual(unified(diff), ['@@ -2,3 +2,3 @@', ' b', '-c', '+C', ' d']);
    assert.equal(diff.added, 1);
    assert.equal(diff.removed, 1);
    assert.equal(diff.approximate, false);
  });

  it('treats a null old text as a new file', () => {
    const diff = diffLines(null, 'x\ny');
    assert.deepEqual(unified(diff), ['@@ -0,0 +1,2 @@', '+x', '+y']);
  });

  it('splits far-apart changes into hunks and joins close ones', () => {
    const old = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    const next = old.replace('line 2', 'LINE 2').replace('line 25', 'LINE 25');
    assert.equal(diffLines(old, next).hunks.length, 2);
    const close = old.replace('line 2', 'LINE 2').replace('line 6', 'LINE 6');
    assert.equal(diffLines(old, close).hunks.length, 1);
  });

  it('produces a diff that turns the old text into the new one', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 50; round++) {
      const old = Array.from({ length: 40 }, () => String(Math.floor(random() * 8)));
      const next = old.filter(() => random() > 0.2).map((line) => (random() > 0.9 ? `${line}!` : line));
      const diff = diffLines(old.join('\n'), next.join('\n'));
      assert.deepEqual(apply(old.join('\n'), diff), next);
    }
  });

  it('is minimal on a classic example', () => {
    // Myers' paper: ABCABBA → CBABAC has edit distance 5.
    const diff = diffLines('A\nB\nC\nA\nB\nB\nA', 'C\nB\nA\nB\nA\nC');
    assert.equal(diff.added + diff.removed, 5);
  });

  it('is minimal: added + removed = n + m − 2·LCS on random inputs', () => {
    const lcs = (a: string[], b: string[]): number => {
      let row = new Array<number>(b.length + 1).fill(0);
      for (const x of a) {
        const next = [0];
        for (let j = 0; j < b.length; j++) {
          next.push(x === b[j] ? (row[j] ?? 0) + 1 : Math.max(row[j + 1] ?? 0, next[j] ?? 0));
        }
        row = next;
      }
      return row[b.length] ?? 0;
    };
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 50; round++) {
      const a = Array.from({ length: 1 + Math.floor(random() * 30) }, () => String(Math.floor(random() * 5)));
      const b = Array.from({ length: 1 + Math.floor(random() * 30) }, () => String(Math.floor(random() * 5)));
      const diff = diffLines(a.join('\n'), b.join('\n'));
      assert.equal(diff.added + diff.removed, a.length + b.length - 2 * lcs(a, b), `round ${round}`);
    }
  });

  it('falls back to a plain replacement past the caps, and says so', () => {
    const old = Array.from({ length: 300 }, (_, i) => `old ${i}`).join('\n');
    const next = Array.from({ length: 300 }, (_, i) => `new ${i}`).join('\n');
    const diff = diffLines(old, next, { maxEdits: 100 });
    assert.equal(diff.approximate, true);
    assert.equal(diff.removed, 300);
    assert.equal(diff.added, 300);
    assert.deepEqual(apply(old, diff), splitLines(next));
    assert.equal(diffLines(old, next, { maxLines: 10 }).approximate, true);
  });

  it('handles CRLF, empty texts and identical texts', () => {
    assert.deepEqual(splitLines('a\r\nb\r\n'), ['a', 'b']);
    assert.deepEqual(diffLines('', '').hunks, []);
    assert.deepEqual(diffLines('same\n', 'same\n').hunks, []);
    assert.deepEqual(unified(diffLines('', 'x')), ['@@ -0,0 +1,1 @@', '+x']);
  });
});
