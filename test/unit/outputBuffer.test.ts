import { strict as assert } from 'node:assert';
import { OutputBuffer } from '../../src/core/outputBuffer';

describe('OutputBuffer', () => {
  it('keeps all output within the byte limit and is not truncated', () => {
    const buffer = new OutputBuffer(10);
    buffer.append(Buffer.from('hello'));
    buffer.append(Buffer.from('world'));

    assert.equal(buffer.text(), 'helloworld');
    assert.equal(buffer.truncated, false);
  });

  it('drops the oldest bytes beyond the limit and reports truncation', () => {
    const buffer = new OutputBuffer(6);
    buffer.append(Buffer.from('line1\n'));
    buffer.append(Buffer.from('line2\n'));

    assert.equal(buffer.text(), 'line2\n');
    assert.equal(buffer.truncated, true);
  });

  it('keeps the tail of a single chunk larger than the limit', () => {
    const buffer = new OutputBuffer(3);
    buffer.append(Buffer.from('abcdefg'));

    assert.equal(buffer.text(), 'efg');
    assert.equal(buffer.truncated, true);
  });

  it('stays truncated after a later append that fits', () => {
    const buffer = new OutputBuffer(3);
    // Cutting '€ab' to 3 bytes keeps only 'ab' (the cut lands inside '€'), leaving room for one byte.
    buffer.append(Buffer.from('€ab'));
    buffer.append(Buffer.from('c'));

    assert.equal(buffer.text(), 'abc');
    assert.equal(buffer.truncated, true);
  });

  it('does not split a two-byte character at the cut', () => {
    const buffer = new OutputBuffer(3);
    // "aé" + "b" is 4 bytes; a 3-byte cut would start inside "é" (c3 a9).
    buffer.append(Buffer.from('aéb'));

    assert.equal(buffer.text(), 'éb');
    const cutInside = new OutputBuffer(2);
    cutInside.append(Buffer.from('aéb'));
    assert.equal(cutInside.text(), 'b');
  });

  it('does not split a three-byte character at the cut', () => {
    for (const [limit, expected] of [
      [4, '€x'],
      [3, 'x'],
      [2, 'x'],
    ] as const) {
      const buffer = new OutputBuffer(limit);
      buffer.append(Buffer.from('€'));
      buffer.append(Buffer.from('x'));
      assert.equal(buffer.text(), expected, `limit ${limit}`);
    }
  });

  it('does not split a four-byte emoji at the cut', () => {
    for (const [limit, expected] of [
      [5, '😀!'],
      [4, '!'],
      [3, '!'],
      [2, '!'],
    ] as const) {
      const buffer = new OutputBuffer(limit);
      buffer.append(Buffer.from('a😀!'));
      assert.equal(buffer.text(), expected, `limit ${limit}`);
    }
  });

  it('joins a character split across two chunks', () => {
    const buffer = new OutputBuffer(100);
    const euro = Buffer.from('€');
    buffer.append(euro.subarray(0, 1));
    buffer.append(euro.subarray(1));

    assert.equal(buffer.text(), '€');
    assert.equal(buffer.truncated, false);
  });
});
