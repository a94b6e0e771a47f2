import { strict as assert } from 'node:assert';
import { sliceLines } from '../../src/core/files/lines';

const TEXT = 'one\ntwo\nthree\nfour\n';

describe('sliceLines', () => {
  it('returns the whole text when neither line nor limit is given', () => {
    assert.equal(sliceLines(TEXT), TEXT);
    assert.equal(sliceLines(TEXT, null, null), TEXT);
  });

  it('starts at the 1-based line and runs to the end', () => {
    assert.equal(sliceLines(TEXT, 1), TEXT);
    assert.equal(sliceLines(TEXT, 3), 'three\nfour\n');
  });

  it('takes limit lines from the start', () => {
    assert.equal(sliceLines(TEXT, undefined, 2), 'one\ntwo\n');
  });

  it('takes limit lines from the given line', () => {
    assert.equal(sliceLines(TEXT, 2, 2), 'two\nthree\n');
  });

  it('stops at the end when limit runs past it', () => {
    assert.equal(sliceLines(TEXT, 3, 10), 'three\nfour\n');
  });

  it('returns nothing for a line past the end', () => {
    assert.equal(sliceLines(TEXT, 5), '');
    assert.equal(sliceLines(TEXT, 9, 2), '');
  });

  it('returns nothing for a limit of zero', () => {
    assert.equal(sliceLines(TEXT, 2, 0), '');
  });

  it('treats line 0 as the first line', () => {
    assert.equal(sliceLines(TEXT, 0, 1), 'one\n');
  });

  it('keeps CRLF line endings', () => {
    assert.equal(sliceLines('a\r\nb\r\nc\r\n', 2, 1), 'b\r\n');
  });

  it('returns a last line without a trailing newline as it is', () => {
    assert.equal(sliceLines('a\nb\nc', 3), 'c');
    assert.equal(sliceLines('a\nb\nc', 2, 5), 'b\nc');
    assert.equal(sliceLines('a\nb\nc', 4), '');
  });
});
