import { strict as assert } from 'node:assert';
import { appendBounded, boundText, TailKeeper, truncationMarker } from '../../src/core/thread/textBudget';

describe('truncationMarker', () => {
  it('names the limit with thousands separators', () => {
    assert.equal(
      truncationMarker(1_000_000),
      '\n\n… [truncated: output over 1,000,000 characters not shown]',
    );
    assert.equal(truncationMarker(10), '\n\n… [truncated: output over 10 characters not shown]');
  });
});

describe('appendBounded', () => {
  it('appends while the result stays within the limit', () => {
    assert.deepEqual(appendBounded('abc', 'de', 5, undefined), { text: 'abcde', appended: 'de' });
  });

  it('cuts the addition at the limit and appends the marker the first time the limit is crossed', () => {
    assert.deepEqual(appendBounded('abc', 'defgh', 5, undefined), {
      text: `abcde${truncationMarker(5)}`,
      appended: `de${truncationMarker(5)}`,
      truncated: { limit: 5, omittedChars: 3 },
    });
  });

  it('appends only the marker when the current text already fills the limit', () => {
    assert.deepEqual(appendBounded('abcde', 'f', 5, undefined), {
      text: `abcde${truncationMarker(5)}`,
      appended: truncationMarker(5),
      truncated: { limit: 5, omittedChars: 1 },
    });
  });

  it('only counts text added after truncation', () => {
    const first = appendBounded('', 'abcdefgh', 4, undefined);
    const second = appendBounded(first.text, 'ijk', 4, first.truncated);
    const third = appendBounded(second.text, 'lm', 4, second.truncated);

    assert.deepEqual(third, {
      text: `abcd${truncationMarker(4)}`,
      appended: '',
      truncated: { limit: 4, omittedChars: 9 },
    });
  });

  it('does not split a surrogate pair at the cut', () => {
    const result = appendBounded('ab', '😀c', 3, undefined);

    assert.equal(result.text, `ab${truncationMarker(3)}`);
    assert.deepEqual(result.truncated, { limit: 3, omittedChars: 3 });
  });
});

describe('boundText', () => {
  it('returns text within the limit without a truncation', () => {
    assert.deepEqual(boundText('hello', 5), { text: 'hello' });
  });

  it('cuts text over the limit and appends the marker', () => {
    assert.deepEqual(boundText('hello world', 5), {
      text: `hello${truncationMarker(5)}`,
      truncated: { limit: 5, omittedChars: 6 },
    });
  });

  it('keeps only the marker for a limit of zero', () => {
    assert.deepEqual(boundText('abc', 0), {
      text: truncationMarker(0),
      truncated: { limit: 0, omittedChars: 3 },
    });
  });
});

describe('TailKeeper', () => {
  it('keeps the last characters of text arriving in pieces, across trims', () => {
    const keeper = new TailKeeper(5);
    for (const piece of ['abc', 'defgh', '', 'ijklmnop', 'q']) {
      keeper.push(piece);
    }
    assert.equal(keeper.text(), 'mnopq');
  });

  it('never starts with half of a surrogate pair', () => {
    const keeper = new TailKeeper(3);
    keeper.push('a😀bc');
    // The last 3 code units would begin with the emoji's second half.
    assert.equal(keeper.text(), 'bc');
  });
});
