import assert from 'node:assert/strict';
import { MarkdownPlanner, type MarkdownOp } from '../../webview/markdown/markdownPlanner';
import { renderedText, renderMarkdown } from '../../webview/markdown/renderer';
import type { ItemsChange, TailPiece } from '../../webview/markdown/tailPieces';
import { textsOfLinesAtRandom } from '../support/linesAtRandom';

/**
 * What a message's DOM shows for a planner's operations, as HTML: its finished blocks in order, then its tail
 * (markdown/markdownDom.ts and tailDom.ts, without a DOM). A live fence shows its code as the block it becomes.
 */
class ShownHtml {
  private blocks: string[] = [];
  private tail: TailPiece[] = [];

  apply(ops: readonly MarkdownOp[]): void {
    for (const op of ops) {
      if (op.op === 'reset') {
        this.blocks = [];
      } else if (op.op === 'block') {
        this.blocks.push(op.html);
      } else if (op.op === 'block-again') {
        assert.ok(op.index < this.blocks.length, `block ${op.index} of ${this.blocks.length}`);
        this.blocks[op.index] = op.html;
      } else if (op.op === 'tail') {
        this.tail = changed(this.tail, { keep: op.keep, grow: op.grow, items: op.pieces });
      } else if (op.op === 'tail-text') {
        this.tail = this.tail.map((piece) =>
          typeof piece === 'string'
            ? piece.replace(/<\/p>\n$/, `${renderedText(op.text)}</p>\n`)
            : { ...piece, items: [...piece.items.slice(0, -1), piece.items.at(-1) + renderedText(op.text)] },
        );
      } else {
        assert.fail(`no fence in these texts: ${op.op}`);
      }
    }
  }

  html(): string {
    return this.blocks.join('') + joined(this.tail);
  }
}

/** Pieces or items after a change (tailPieces.ts): the first kept, the next grown in place, new ones after. */
function changed(
  pieces: readonly TailPiece[],
  change: { keep: number; grow?: ItemsChange | undefined; items: readonly TailPiece[] },
): TailPiece[] {
  const kept = pieces.slice(0, change.keep);
  const grown = pieces[change.keep];
  if (change.grow) {
    assert.ok(typeof grown === 'object', 'a container grows');
    kept.push({ ...grown, items: changed(grown.items, change.grow) });
  }
  return [...kept, ...change.items];
}

function joined(pieces: readonly TailPiece[]): string {
  return pieces
    .map((piece) => (typeof piece === 'string' ? piece : piece.open + joined(piece.items) + piece.close))
    .join('');
}

/** Texts whose links are defined in another block than the one using them, before or after it. */
const TEXTS = [
  'See [the docs] and [more][d2].\n\nAnd [the docs][].\n\n[the docs]: https://example.com/docs "Docs"\n[d2]: https://example.com/2',
  '[a]: https://a.example\n\nUse [a] here.\n\nAnd [A] again.',
  'First [x].\n\n[x]: https://first.example\n\n[x]: https://second.example\n\nThen [x].',
  'A [Label  With\nSpaces].\n\n- an item with [ref]\n- and [Label with spaces]\n\n> [ref]: https://quoted.example\n\n[label with spaces]: <https://spaced.example>',
  'See [ the  docs ], [it][ ref ] and [\nref\n].\n\n[The Docs]: https://docs.example\n[REF]: https://ref.example',
  'Note [1]: the first, as in [2]:\n\n[1]: https://one.example\n[2]: https://two.example',
  'Escaped [a\\]b] and \\[not one] and [c\\[d].\n\n[a\\]b]: https://ab.example\n[c\\[d]: https://cd.example',
  'Only text with [brackets] and [a link](https://inline.example), no definition.\n\n[not]: a definition? no: it is one',
  'Read [a](not a link, which falls back to the label.\n\n[a]: https://a.example',
];

/** Lines that use, define or only look like labels, for texts made of them at random (seeded: the same every run). */
const LINES = [
  'Use [a].',
  '[a]: https://a.example',
  '[A]: https://other.example "T"',
  'x [b][a] y',
  'see [ a ] and [b]',
  '[b]: <https://b.example>',
  '> [a]: https://q.example',
  '- [a] item',
  '- [b]: https://li.example',
  '',
  '',
  'para',
  'Note [a]: colon',
  '[a][]',
  '  [b]: /rel',
  '[c]:',
  'https://c.example',
  '# [a]',
  '| [a] |',
  '| - |',
  '[x](https://inline.example)',
  '[a](not a link',
  'text *em [a]* end',
  '1. [b]',
];

/** Streams `text` a character at a time; after each, what the page shows must be a render once of the text so far. */
function assertShownAsWhole(text: string): void {
  const planner = new MarkdownPlanner();
  const shown = new ShownHtml();
  for (let end = 1; end <= text.length; end++) {
    shown.apply(planner.append(text.slice(end - 1, end)));
    assert.equal(shown.html(), renderMarkdown(text.slice(0, end)), JSON.stringify(text.slice(0, end)));
  }
  const whole = new ShownHtml();
  whole.apply(new MarkdownPlanner().setText(text));
  assert.equal(whole.html(), renderMarkdown(text), 'shown whole');
}

describe('webview: link references across the blocks of a streamed message', () => {
  for (const text of TEXTS) {
    it(`shows ${JSON.stringify(text.slice(0, 40))}… as rendering it once does, at every length`, () => {
      assertShownAsWhole(text);
    });
  }

  it('shows 600 texts of lines drawn at random, a character at a time, as each renders at once', function () {
    this.timeout(120_000);
    for (const text of textsOfLinesAtRandom(LINES, 600, 7, 9)) {
      assertShownAsWhole(text);
    }
  });

  it('renders again only the blocks that use a label just defined', () => {
    const planner = new MarkdownPlanner();
    planner.append('Uses [x].\n\nNo label.\n\nUses [y].\n\n');
    const ops = planner.append('[x]: https://x.example\n\nEnd');
    const again = ops.filter((op) => op.op === 'block-again');
    assert.deepEqual(
      again.map((op) => op.op === 'block-again' && op.index),
      [0],
      'the first block only',
    );
  });

  it('renders again a block with more bracketed spans than it remembers, whatever label is defined', () => {
    const planner = new MarkdownPlanner();
    const many = Array.from({ length: 201 }, (_, i) => `[s${i}]`).join(' ');
    planner.append(`${many} and [x].\n\nUses [y].\n\n`);
    const again = planner.append('[x]: https://x.example\n\nEnd').filter((op) => op.op === 'block-again');
    assert.deepEqual(again, [
      { op: 'block-again', index: 0, html: renderMarkdown(`${many} and [x].\n\n[x]: https://x.example`) },
    ]);
  });

  it('renders again at most the first 2,000 blocks that may use a label: later ones keep their brackets', () => {
    const planner = new MarkdownPlanner();
    planner.append(Array.from({ length: 2001 }, (_, i) => `Use [x] ${i}.\n\n`).join(''));
    const again = planner.append('[x]: https://x.example\n\nEnd').filter((op) => op.op === 'block-again');
    assert.equal(again.length, 2000);
    assert.deepEqual(again.at(-1), {
      op: 'block-again',
      index: 1999,
      html: renderMarkdown('Use [x] 1999.\n\n[x]: https://x.example'),
    });
  });
});
