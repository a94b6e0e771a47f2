import { strict as assert } from 'node:assert';
import { hunkAtCursor, hunkToGo, type HunkPlace } from '../../../src/features/hunkReview/core/hunkNavigation';

/** Two files: a.txt with hunks on lines 2–3 and 10 (a removal), b.txt with one on line 5. */
const PLACES: HunkPlace[] = [
  { path: '/w/a.txt', anchor: 2, last: 3 },
  { path: '/w/a.txt', anchor: 10, last: 10 },
  { path: '/w/b.txt', anchor: 5, last: 7 },
];
const at = (path: string, line: number) => ({ path: `/w/${path}`, line });

describe('hunk review: moving between hunks as the editor moves between changes', () => {
  it('Previous from below a hunk goes to that hunk, not past it', () => {
    assert.equal(hunkToGo(PLACES, at('b.txt', 20), -1), 2, "below b.txt's only hunk");
    assert.equal(hunkToGo(PLACES, at('a.txt', 6), -1), 0, 'between the two hunks of a.txt');
  });

  it('Previous from on a hunk goes to the one before, wrapping to the last file', () => {
    assert.equal(hunkToGo(PLACES, at('b.txt', 6), -1), 1);
    assert.equal(hunkToGo(PLACES, at('a.txt', 2), -1), 2, 'from the first hunk: the last one');
    assert.equal(hunkToGo(PLACES, at('a.txt', 0), -1), 2, 'above every hunk of the first file');
  });

  it('Next from above a hunk goes to it; from on or below it, to the one after, wrapping', () => {
    assert.equal(hunkToGo(PLACES, at('a.txt', 0), 1), 0);
    assert.equal(hunkToGo(PLACES, at('a.txt', 3), 1), 1);
    assert.equal(hunkToGo(PLACES, at('a.txt', 12), 1), 2);
    assert.equal(hunkToGo(PLACES, at('b.txt', 5), 1), 0, 'from the last: the first');
  });

  it('from a file without hunks (or no editor) Next starts at the first and Previous at the last', () => {
    assert.equal(hunkToGo(PLACES, at('c.txt', 1), 1), 0);
    assert.equal(hunkToGo(PLACES, undefined, -1), 2);
    assert.equal(hunkToGo([], at('a.txt', 1), 1), undefined);
    assert.equal(hunkAtCursor(PLACES, at('c.txt', 1)), undefined);
    assert.equal(hunkAtCursor(PLACES, at('a.txt', 9)), 0, 'the last hunk starting at or above the cursor');
  });
});
