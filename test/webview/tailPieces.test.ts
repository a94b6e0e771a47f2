import assert from 'node:assert/strict';
import { renderedText, renderMarkdown, renderTailPieces } from '../../webview/markdown/renderer';
import { tailChange, withWordsAdded, type TailPiece } from '../../webview/markdown/tailPieces';

/** The HTML the pieces make joined: what the page shows for them. */
function joined(pieces: readonly TailPiece[]): string {
  return pieces
    .map((piece) => (typeof piece === 'string' ? piece : piece.open + joined(piece.items) + piece.close))
    .join('');
}

/** One long line with markup every few words, an emphasis that opens early and closes late, and links. */
const LONG_LINE =
  '**Opened early ' +
  Array.from(
    { length: 12 },
    (_, i) => `word ${i} *em ${i}* and \`c${i}\` see https://example.com/${i} & [l${i}](u${i}) `,
  ).join('') +
  'closed late** "quoted" end';

/** Tails with no blank line to split at: what stays the tail while it streams. */
const TAILS = [
  '- one\n- two\n- three',
  '- one\n\n- two, a loose list\n- three',
  '1. one\n2. two\n3. three',
  '3. starts at three\n4. four',
  '- a\n  - nested\n  - more\n- b',
  '- item with `code`, **bold** and [a link](https://example.com)\n- [ ] a task\n- ![image](x.png)',
  '- a\n> a quote after\n- b',
  '| a | b |\n| --- | :-: |\n| 1 | 2 |\n| 3 | 4 |',
  '| a | b |\n| --- | --- |',
  '| a | b |\n| ---: | :--- |\n| 1 |\n| 2 | 3 | 4 |',
  'Intro:\n- one\n- two\n# Heading\n| a |\n| - |\n| 1 |\nAfter',
  '> quoted\n> - a list in it\n> - two',
  '```ts\ncode();\n```\n- after a fence\n- two',
  '    indented code\n- then a list',
  '* one\n+ another list\n- a third',
  '---\n- after a rule',
  '- one\n\n\n- two after blank lines',
  'Paragraph\nwith a line *and markup*',
  'Lines with `code`\nand *emphasis\nacross* a break\nand a [link\nacross](https://example.com) one',
  'A hard break  \nand a backslash one\\\nthen **bold**',
  '`a code span\nacross lines` then\nmore',
  '# Heading\nthen lines\nof a paragraph',
  LONG_LINE,
  `Lines, then a long one\n${LONG_LINE}\nand a short one`,
  '- Files changed:\n  - `a.ts`: one\n  - `b.ts`: two\n    - deeper\n    - deeper *two*\n  - c',
  '1. Step:\n   1. sub *one*\n   2. sub two\n2. next',
  '- loose item\n\n  - nested in a loose item\n  - two',
  '- a\n  text after\n  - nested\n\n  para in the item',
  '> line one *em\n> across* lines\n> and `code`',
  '> quoted\n>\n> second paragraph\n> - list\n>   - nested\n> - two',
  '- item\n  > quote in an item\n  > more',
  '> > nested quote\n> > more\n> back',
  'lazy\n> quote\nlazy continuation\n- list after',
  '> | a |\n> | - |\n> | 1 |\n> | 2 |',
  '',
];

describe('webview: a streaming tail cut into pieces', () => {
  it('joins to exactly the HTML of rendering the tail once, at every length of it', () => {
    for (const tail of TAILS) {
      for (let end = 0; end <= tail.length; end++) {
        const text = tail.slice(0, end);
        assert.equal(joined(renderTailPieces(text)), renderMarkdown(text), JSON.stringify(text));
      }
    }
  });

  it('cuts a list, a table with body rows and a paragraph of lines into items, anything else into whole blocks', () => {
    const pieces = renderTailPieces(
      'Intro\n- one\n- two\n# Rows\n| a |\n| - |\n| 1 |\n| 2 |\n\nLines *one\ntwo* and\nthree',
    );
    assert.deepEqual(
      pieces.map((piece) =>
        typeof piece === 'string' ? 'block' : `${piece.container} of ${piece.items.length}`,
      ),
      ['block', 'list of 2', 'block', 'table of 2', 'paragraph of 2'],
      'a line break inside emphasis does not cut the paragraph',
    );
  });

  it('keeps what is shown alike and grows the last list by its new items', () => {
    const shown = renderTailPieces('Intro\n- one\n- two\n- thr');
    const next = renderTailPieces('Intro\n- one\n- two\n- three\n- four');
    assert.deepEqual(tailChange(shown, next), {
      keep: 1,
      grow: { keep: 2, items: ['<li>three</li>\n', '<li>four</li>\n'] },
      pieces: [],
    });
    assert.equal(tailChange(next, next), undefined, 'the same pieces: nothing to change');
    assert.deepEqual(
      tailChange(undefined, next),
      { keep: 0, pieces: next },
      'nothing known shown: all of it',
    );
  });

  it('shows the whole list again when it turns loose, and a block after a list once the list ends', () => {
    const tight = renderTailPieces('- one\n- two');
    const loose = renderTailPieces('- one\n- two\n\n- three');
    const change = tailChange(tight, loose);
    assert.equal(change?.grow?.keep, 0, 'no item of a tight list stays as it was in a loose one');
    const after = renderTailPieces('- one\n- two\n# Done');
    assert.deepEqual(tailChange(tight, after), { keep: 1, pieces: ['<h1>Done</h1>\n'] });
  });

  it('cuts a long line into runs of at most 64 tokens, never where an emphasis or a link is open', () => {
    const [paragraph] = renderTailPieces(LONG_LINE.replace('**Opened early ', 'Opened early '));
    assert.ok(typeof paragraph === 'object' && paragraph.container === 'paragraph');
    assert.ok(paragraph.items.length >= 3, `${paragraph.items.length} runs`);
    for (const run of paragraph.items) {
      assert.ok(typeof run === 'string');
      assert.equal(run.split('<em>').length, run.split('</em>').length, run);
      assert.equal(run.split('<a ').length, run.split('</a>').length, run);
    }
    // The emphasis open from the first word to the last: one run, then the words after it.
    const [strong] = renderTailPieces(LONG_LINE);
    assert.ok(typeof strong === 'object');
    assert.equal(strong.items.length, 2);
    assert.match(String(strong.items[0]), /^<strong>Opened early .*closed late<\/strong>$/s);
    assert.equal(typeof renderTailPieces('A short line with *markup*')[0], 'string');
  });

  it('keeps the runs of a long line shown when plain words are added to it, as a render of the longer line has them', () => {
    const shown = `${LONG_LINE.replace('**Opened early ', 'Opened early ')} more`;
    const added = withWordsAdded(renderTailPieces(shown), renderedText(' words, "quoted"'));
    const rendered = renderTailPieces(`${shown} words, "quoted"`);
    assert.deepEqual(added, rendered);
    assert.equal(tailChange(added, rendered), undefined, 'nothing to show again');
    assert.equal(withWordsAdded(renderTailPieces('A short line'), 'words'), undefined, 'not known');
  });
});
