import { strict as assert } from 'node:assert';
import { BoundedLog } from '../../src/core/util/boundedLog';

describe('BoundedLog', () => {
  /** What a log of `maxChars` holds, and how much it dropped, after `appends` in order. */
  const CASES: { title: string; maxChars: number; appends: string[]; text: string; droppedChars: number }[] =
    [
      {
        title: 'keeps everything while under the budget',
        maxChars: 20,
        appends: ['one\n', 'two\n'],
        text: 'one\ntwo\n',
        droppedChars: 0,
      },
      {
        title: 'keeps only the last maxChars characters across appends',
        maxChars: 10,
        appends: ['line1\n', 'line2\n', 'line3\n'],
        text: 'ne2\nline3\n',
        droppedChars: 8,
      },
      {
        title: 'keeps the tail of a single append larger than the budget',
        maxChars: 4,
        appends: ['abcdefghij'],
        text: 'ghij',
        droppedChars: 6,
      },
      {
        title: 'drops whole earlier chunks when a large append arrives',
        maxChars: 5,
        appends: ['ab', 'cd', '0123456'],
        text: '23456',
        droppedChars: 6,
      },
      { title: 'ignores empty appends', maxChars: 3, appends: ['abc', ''], text: 'abc', droppedChars: 0 },
    ];
  for (const { title, maxChars, appends, text, droppedChars } of CASES) {
    it(title, () => {
      const log = new BoundedLog(maxChars);
      for (const chunk of appends) {
        log.append(chunk);
      }

      assert.equal(log.text(), text);
      assert.equal(log.droppedChars, droppedChars);
    });
  }

  it('keeps appending correctly after text() joined the chunks', () => {
    const log = new BoundedLog(6);
    log.append('abc');
    log.append('def');
    assert.equal(log.text(), 'abcdef');
    log.append('gh');

    assert.equal(log.text(), 'cdefgh');
    assert.equal(log.droppedChars, 2);
  });

  it('returns an empty text when nothing was appended', () => {
    assert.equal(new BoundedLog(3).text(), '');
    assert.deepEqual(new BoundedLog(3).lastLines(2), []);
  });

  it('gives the last n complete lines without the empty piece after a final newline', () => {
    const log = new BoundedLog(100);
    log.append('a\nb\r\nc\n');

    assert.deepEqual(log.lastLines(2), ['b', 'c']);
    assert.deepEqual(log.lastLines(10), ['a', 'b', 'c']);
  });

  it('includes a trailing partial line in lastLines', () => {
    const log = new BoundedLog(100);
    log.append('first\nsecond\nthird without newline');

    assert.deepEqual(log.lastLines(2), ['second', 'third without newline']);
  });

  it('starts lastLines with the cut line when the front was dropped', () => {
    const log = new BoundedLog(8);
    log.append('alpha\nbeta\ngamma\n');

    assert.deepEqual(log.lastLines(5), ['a', 'gamma']);
    assert.equal(log.droppedChars, 9);
  });

  it('gives no lines for lastLines(0)', () => {
    const log = new BoundedLog(100);
    log.append('a\nb\n');

    assert.deepEqual(log.lastLines(0), []);
  });
});
