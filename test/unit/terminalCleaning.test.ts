import { strict as assert } from 'node:assert';
import {
  cleanTerminalText,
  PARTIAL_ESCAPE,
  TerminalCleaner,
} from '../../webview/render/terminals/terminalCleaning';

/** What the view showed after each part when it cleaned the whole line being written on every part. */
function shownWholeLine(parts: readonly string[]): string[] {
  const shown: string[] = [];
  let lines = '';
  let tail = '';
  for (const part of parts) {
    const text = tail + part;
    const lineEnd = text.lastIndexOf('\n') + 1;
    lines += cleanTerminalText(text.slice(0, lineEnd));
    tail = text.slice(lineEnd);
    shown.push(lines + cleanTerminalText(tail).replace(PARTIAL_ESCAPE, ''));
  }
  return shown;
}

function shownByCleaner(parts: readonly string[]): string[] {
  const cleaner = new TerminalCleaner();
  let lines = '';
  let current = '';
  return parts.map((part) => {
    const cleaned = cleaner.push(part);
    lines += cleaned.lines;
    current = cleaned.extends ? current + cleaned.current : cleaned.current;
    return lines + current;
  });
}

/** Pieces an output is made of: text, \r and \n, escape sequences whole and in halves, an OSC title. */
const PIECES = [
  'a',
  'bc',
  ' ',
  '\r',
  '\r',
  '\n',
  '\r\n',
  '\u001b',
  '[',
  '3',
  '2m',
  '\u001b[K',
  '\u001b[0m',
  '\u001b[2',
  ']',
  '\u001b]0;',
  'title',
  '\u0007',
  '\u001b\\',
  '\u001bM',
  '9',
  ';',
];

describe('webview terminal cleaning', () => {
  it('shows after every part what cleaning the whole line being written showed, however the output is cut', () => {
    let seed = 11;
    const random = (n: number): number => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; // 32-bit: a product past 2 ** 53 loses bits
      return Math.floor((seed / 2 ** 32) * n); // the high bits: the low ones repeat quickly
    };
    for (let output = 0; output < 20_000; output++) {
      const parts = Array.from({ length: 1 + random(10) }, () =>
        Array.from({ length: random(5) }, () => PIECES[random(PIECES.length)]).join(''),
      );
      assert.deepEqual(shownByCleaner(parts), shownWholeLine(parts), JSON.stringify(parts));
    }
  });

  it('holds a progress line redrawn 20,000 times without a newline at its last state', () => {
    const cleaner = new TerminalCleaner();
    let shown = '';
    for (let state = 0; state < 20_000; state++) {
      shown = cleaner.push(
        `\r\u001b[32m${'='.repeat(state % 40).padEnd(40)}\u001b[0m ${state} of 20000`,
      ).current;
      assert.ok(cleaner.heldChars < 80, `${cleaner.heldChars} characters held at state ${state}`);
    }
    assert.equal(shown, `${'='.repeat(19_999 % 40).padEnd(40)} 19999 of 20000`);
    assert.equal(cleaner.push(' done\n').lines, `${shown} done\n`);
    assert.equal(cleaner.heldChars, 0);
  });

  it('keeps the line whole while an OSC sequence opened in it may still end after its \\r', () => {
    const cleaner = new TerminalCleaner();
    cleaner.push('before\u001b]0;a title\rstill the title\rmore');
    assert.ok(cleaner.heldChars > 'more'.length, 'the line is not cut inside the sequence');
    assert.equal(cleaner.push('\u0007after\n').lines, 'beforeafter\n');
  });

  it('adds to a long line only what each part adds while nothing rewrites it', () => {
    const cleaner = new TerminalCleaner();
    const parts = ['{"a":', '\u001b[1m1\u001b[0m,', '"b":2', '\u001b[3', '1m,"c"', '\r{', '}\n'];
    assert.deepEqual(
      parts.map((part) => {
        const { extends: adds, current } = cleaner.push(part);
        return [adds, current];
      }),
      [
        [true, '{"a":'],
        [true, '1,'],
        [true, '"b":2'],
        [true, ''], // half an escape: not shown, and the next part cleans the line whole
        [false, '{"a":1,"b":2,"c"'],
        [false, '{'],
        [false, ''],
      ],
    );
  });
});
