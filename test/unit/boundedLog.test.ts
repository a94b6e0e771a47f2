import { strict as assert } from 'node:assert';
import { BoundedLog } from '../../src/core/util/boundedLog';

describe('BoundedLog', () => {
  it('keeps everything while under the budget', () => {
    const log = new BoundedLog(20);
    log.append('one\n');
    log.append('two\n');

    assert.equal(log.text(), 'one\ntwo\n');
    assert.equal(log.droppedChars, 0);
  });

  it('keeps only the last maxChars characters across appends', () => {
    const log = new BoundedLog(10);
    log.append('line1\n');
    log.append('line2\n');
    log.append('line3\n');

    assert.equal(log.text(), 'ne2\nline3\n');
    assert.equal(log.droppedChars, 8);
  });

  it('keeps the tail of a single append larger than the budget', () => {
    const log = new BoundedLog(4);
    log.append('abcdefghij');

    assert.equal(log.text(), 'ghij');
    assert.equal(log.droppedChars, 6);
  });

  it('drops whole earlier chunks when a large append arrives', () => {
    const log = new BoundedLog(5);
    log.append('ab');
    log.append('cd');
    log.append('0123456');

    assert.equal(log.text(), '23456');
    assert.equal(log.droppedChars, 6);
  });

  it('keeps appending correctly after text() joined the chunks', () => {
    const log = new BoundedLog(6);
    log.append('abc');
    log.append('def');
    assert.equal(log.text(), 'abcdef');
    log.append('gh');

    assert.equal(log.text(), 'cdefgh');
    assert.equal(log.droppedChars, 2);
  });

  it('ignores empty appends', () => {
    const log = new BoundedLog(3);
    log.append('abc');
    log.append('');

    assert.equal(log.text(), 'abc');
    assert.equal(log.droppedChars, 0);
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
