import assert from 'node:assert/strict';
import { BlockSplitter, type SplitResult } from '../../webview/markdown/blockSplitter';
import { renderMarkdown } from '../../webview/markdown/renderer';
import { textsOfLinesAtRandom } from '../support/linesAtRandom';

/** Feeds `text` in chunks of `size`; returns every committed segment and the last result. */
function stream(text: string, size: number): { segments: string[]; last: SplitResult } {
  const splitter = new BlockSplitter();
  const segments: string[] = [];
  let last: SplitResult | undefined;
  for (let end = size; end < text.length + size; end += size) {
    last = splitter.update(text.slice(0, end));
    assert.ok(last);
    segments.push(...last.committed);
  }
  return { segments, last: last as SplitResult };
}

/**
 * Texts whose blocks could be cut where a later line changes how an earlier block renders: loose lists
 * (a blank line between items), lists after a paragraph, nested and ordered ones, fences and blocks
 * after them. (A link's reference defined after its use is out of reach of any split: not here.)
 */
const CUT_CANDIDATES = [
  '- one\n\n- two\n\n- three',
  'Steps:\n\n1. first\n\n2. second\n   more of it\n\n3. third\n\nDone.',
  '1) a\n\n2) b\n\n* c\n\n* d\n\n+ e',
  '- a\n  - nested\n\n- b\n\n\n- after two blank lines\n\nPara\n\n- new list',
  'Para\n- interrupting\n\n- loose now\n\n    indented\n\n10. ten\n\n11. eleven',
  '- item\n\n```js\nx();\n\n```\n\n- after a fence\n\n- - -\n\n- last',
  '* a\n\n*emphasis*, not an item\n\n-not an item\n\n1.not one\n\n- x\n\n123456789. nine digits\n\n- y',
  '> - quoted\n\n- not in the quote\n\n- same list',
];

/** Lines that start, go on with or end blocks, for texts made of them at random (seeded: the same every run). */
const LINES = [
  '- a',
  '* b',
  '+ c',
  '1. d',
  '2) e',
  '10. x',
  '-',
  '1.',
  '  - nested',
  '   3. three',
  '- - -',
  '***',
];
LINES.push(
  '',
  '',
  'para',
  '  indented',
  '    code',
  '```',
  '~~~',
  '> quote',
  '# h',
  '---',
  '===',
  '| x |',
  '| - |',
);
LINES.push('text *em', 'em* end');

/** Streams `text` in chunks of `size`; after each, the blocks and the tail rendered apart must equal a render once. */
function assertRendersAsWhole(text: string, size: number): void {
  const splitter = new BlockSplitter();
  const segments: string[] = [];
  for (let at = 0; at < text.length; at += size) {
    const result = splitter.append(text.slice(at, at + size));
    segments.push(...result.committed);
    const soFar = text.slice(0, at + size);
    const shown = [...segments, result.tail].map((markdown) => renderMarkdown(markdown)).join('');
    assert.equal(shown, renderMarkdown(soFar), `${JSON.stringify(soFar)} in chunks of ${size}`);
  }
}

describe('webview markdown block splitter', () => {
  it('renders, block by block, as the whole text renders at once, whatever the chunks', () => {
    for (const text of CUT_CANDIDATES) {
      for (const size of [1, 2, 3, 5, 1000]) {
        assertRendersAsWhole(text, size);
      }
    }
  });

  it('renders 1,500 texts of lines drawn at random, a character at a time, as each renders at once', () => {
    for (const text of textsOfLinesAtRandom(LINES, 1500, 42, 8)) {
      assertRendersAsWhole(text, 1);
    }
  });

  it('commits paragraphs once the next block starts, whatever the chunk size', () => {
    const text = 'First para.\n\nSecond para\ncontinues.\n\nThird';
    for (const size of [1, 2, 3, 7, 100]) {
      const { segments, last } = stream(text, size);
      assert.deepEqual(segments, ['First para.\n\n', 'Second para\ncontinues.\n\n'], `chunk ${size}`);
      assert.equal(last.tail, 'Third');
      assert.equal(segments.join('') + last.tail, text);
    }
  });

  it('never splits inside a fence, even across blank lines', () => {
    const text = 'Intro\n\n```js\na();\n\n\nb();\n```\nAfter';
    const { segments, last } = stream(text, 1);
    assert.deepEqual(segments, ['Intro\n\n', '```js\na();\n\n\nb();\n```\n']);
    assert.equal(last.tail, 'After');
  });

  it('reports a top-level fence that is still open, with its code so far', () => {
    const splitter = new BlockSplitter();
    const result = splitter.update('Text\n```py\nprint(1)\nprint(2');
    assert.deepEqual(result?.committed, ['Text\n']);
    assert.deepEqual(result?.openFence, { language: 'py', code: 'print(1)\nprint(2' });
    // A partial line that may be the closing fence is held back…
    assert.deepEqual(splitter.update('Text\n```py\nprint(1)\n``')?.openFence, {
      language: 'py',
      code: 'print(1)\n',
    });
    // …and a complete closing fence without a newline ends the open state.
    assert.equal(splitter.update('Text\n```py\nprint(1)\n```')?.openFence, undefined);
  });

  it('keeps indented continuations (list items, indented code) with their block', () => {
    const text = '- item\n\n  more of the item\n\n    code\n\nNext';
    const { segments, last } = stream(text, 1);
    assert.deepEqual(segments, ['- item\n\n  more of the item\n\n    code\n\n']);
    assert.equal(last.tail, 'Next');
  });

  it('does not treat an indented fence (in a list) as a block boundary', () => {
    const text = '1. step\n   ```sh\n   ls\n\n   ```\n2. next';
    const { segments } = stream(text, 1);
    assert.deepEqual(segments, []);
  });

  it('asks to start over when the text is replaced, and handles tilde fences', () => {
    const splitter = new BlockSplitter();
    splitter.update('One\n\nTwo\n\nThree');
    assert.equal(splitter.update('Different'), undefined);
    splitter.reset();
    const result = splitter.update('~~~\ncode ``` here\n\n~~~\n\nAfter');
    assert.deepEqual(result?.committed, ['~~~\ncode ``` here\n\n~~~\n', '\n']);
  });

  it('rescans an unstable tail that changed but keeps the stable prefix', () => {
    const splitter = new BlockSplitter();
    splitter.update('Stable.\n\nTail one\n');
    const result = splitter.update('Stable.\n\nTail two\n\nMore');
    assert.deepEqual(result?.committed, ['Tail two\n\n']);
    assert.equal(splitter.stableLength, 'Stable.\n\nTail two\n\n'.length);
  });

  it('from deltas, keeps the same blocks, tail and open fence as a fresh scan of the whole text', () => {
    const text =
      'Intro para\nline two\n\n- a\n- b\n\n  indented\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n' +
      '| x | y |\n| - | - |\n| 1 | 2 |\n\n~~~\nopen fence\n``';
    for (const size of [1, 2, 5, 13, 1000]) {
      const deltas = new BlockSplitter();
      const fromDeltas: string[] = [];
      for (let at = 0; at < text.length; at += size) {
        const b = deltas.append(text.slice(at, at + size));
        fromDeltas.push(...b.committed);
        const fresh = new BlockSplitter().update(text.slice(0, at + size));
        assert.ok(fresh);
        assert.deepEqual(fromDeltas, fresh.committed, `chunk ${size} at ${at}`);
        assert.equal(b.tail, fresh.tail, `chunk ${size} at ${at}`);
        assert.deepEqual(b.openFence, fresh.openFence, `chunk ${size} at ${at}`);
      }
      assert.equal(fromDeltas.join('') + deltas.append('').tail, text);
      assert.deepEqual(deltas.append('').openFence, { language: '', code: 'open fence\n``' });
    }
  });

  it('says what the first committed fence holds, as read, so that no one reads it again', () => {
    const splitter = new BlockSplitter();
    assert.equal(splitter.append('Intro\n\n```ts  extra\r\nconst a = 1;\n').closedFence, undefined);
    const closed = splitter.append('\n  ```\nAfter\n\n~~~\nx\n~~~\n');
    assert.deepEqual(closed.committed, [
      '```ts  extra\r\nconst a = 1;\n\n  ```\n',
      'After\n\n',
      '~~~\nx\n~~~\n',
    ]);
    // The info untrimmed (the line's carriage return dropped), the code between the fence lines.
    assert.deepEqual(closed.closedFence, { info: 'ts  extra', code: 'const a = 1;\n\n' });
    // Only the first segment is described: a paragraph first means no fence to adopt.
    const later = new BlockSplitter();
    assert.equal(later.append('Para\n```\nx\n```\n').closedFence, undefined);
    assert.deepEqual(new BlockSplitter().append('~~~~ \tpy\n~~~\n~~~~~\n').closedFence, {
      info: ' \tpy',
      code: '~~~\n',
    });
  });

  it('ends a fence only on its own marker, at most three spaces in, whatever the chunks', () => {
    const text = '```js\n    ```\n~~~\n `` `\n   ```js\n  ``\n   ````  \nafter\n\n~~~\n```\n   ~~~~\n\nEnd';
    const whole = new BlockSplitter().update(text);
    assert.deepEqual(whole?.committed, [
      '```js\n    ```\n~~~\n `` `\n   ```js\n  ``\n   ````  \n',
      'after\n\n',
      '~~~\n```\n   ~~~~\n',
      '\n',
    ]);
    for (const size of [1, 3, 7]) {
      const { segments, last } = stream(text, size);
      assert.deepEqual(segments, whole?.committed, `chunk ${size}`);
      assert.equal(last.tail, 'End');
    }
  });
});
