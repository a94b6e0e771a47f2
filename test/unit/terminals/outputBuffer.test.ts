import { strict as assert } from 'node:assert';
import { OutputBuffer } from '../../../src/features/terminals/core/outputBuffer';

describe('OutputBuffer', () => {
  /** What a buffer of `limit` bytes holds, and whether it says it dropped some, after `appends` in order. */
  const CASES: { title: string; limit: number; appends: string[]; text: string; truncated: boolean }[] = [
    {
      title: 'keeps all output within the byte limit and is not truncated',
      limit: 10,
      appends: ['hello', 'world'],
      text: 'helloworld',
      truncated: false,
    },
    {
      title: 'drops the oldest bytes beyond the limit and reports truncation',
      limit: 6,
      appends: ['line1\n', 'line2\n'],
      text: 'line2\n',
      truncated: true,
    },
    {
      title: 'keeps the tail of a single chunk larger than the limit',
      limit: 3,
      appends: ['abcdefg'],
      text: 'efg',
      truncated: true,
    },
    {
      // Cutting '€ab' to 3 bytes keeps only 'ab' (the cut lands inside '€'), leaving room for one byte.
      title: 'stays truncated after a later append that fits',
      limit: 3,
      appends: ['€ab', 'c'],
      text: 'abc',
      truncated: true,
    },
  ];
  for (const { title, limit, appends, text, truncated } of CASES) {
    it(title, () => {
      const buffer = new OutputBuffer(limit);
      for (const chunk of appends) {
        buffer.append(Buffer.from(chunk));
      }

      assert.equal(buffer.text(), text);
      assert.equal(buffer.truncated, truncated);
    });
  }

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

  it('keeps exactly the tail a whole-buffer cut would keep, for many chunks of any size', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const alphabet = ['a', 'é', '€', '😀', '\n'];
    for (const limit of [1, 5, 64, 1000]) {
      const buffer = new OutputBuffer(limit);
      const all: Buffer[] = [];
      for (let i = 0; i < 500; i++) {
        const text = Array.from({ length: random(40) }, () => alphabet[random(alphabet.length)]).join('');
        const bytes = Buffer.from(text);
        // Cut anywhere, also inside a character: chunks arrive as the pipe delivers them.
        const cut = random(bytes.length + 1);
        for (const piece of [bytes.subarray(0, cut), bytes.subarray(cut)]) {
          buffer.append(piece);
          all.push(piece);
        }
      }
      const whole = Buffer.concat(all);
      let start = Math.max(0, whole.length - limit);
      while (start < whole.length && ((whole[start] as number) & 0xc0) === 0x80) {
        start++;
      }
      assert.equal(buffer.text(), whole.subarray(start).toString('utf8'), `limit ${limit}`);
      assert.equal(buffer.totalBytes, whole.length);
      assert.equal(buffer.truncated, whole.length > limit);
    }
  });
});
