import assert from 'node:assert/strict';
import { LinkReferences } from '../../webview/markdown/linkReferences';
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

  it('shows a definition being written in each of the 100 finished blocks that use its label, at every character', () => {
    const users = Array.from({ length: 100 }, (_, i) => `Cites [a] in ${i}.\n\n`).join('');
    const text = `${users}[a]: https://a.example/docs "The docs"`;
    const planner = new MarkdownPlanner();
    const shown = new ShownHtml();
    shown.apply(planner.append(users));
    for (let end = users.length + 1; end <= text.length; end++) {
      shown.apply(planner.append(text.slice(end - 1, end)));
      assert.equal(
        shown.html(),
        renderMarkdown(text.slice(0, end)),
        JSON.stringify(text.slice(users.length, end)),
      );
    }
  });

  it('shows a label used by 101 finished blocks as text in them while its definition is written, then as a link in all', () => {
    const users = Array.from({ length: 101 }, (_, i) => `Cites [a] in ${i}.\n\n`).join('');
    const definition = '[a]: https://a.example/docs "The docs"';
    const planner = new MarkdownPlanner();
    const shown = new ShownHtml();
    shown.apply(planner.append(users));
    let again = 0;
    for (const char of definition) {
      const ops = planner.append(char);
      again += ops.filter((op) => op.op === 'block-again').length;
      shown.apply(ops);
    }
    assert.equal(again, 0, 'no block rendered again while the definition grows');
    assert.ok(
      !shown.html().includes('href'),
      'the users show the label as text, not an address not yet written',
    );
    const ops = planner.append('\n\nEnd.');
    shown.apply(ops);
    assert.equal(ops.filter((op) => op.op === 'block-again').length, 101, 'each user rendered again once');
    assert.equal(shown.html(), renderMarkdown(`${users}${definition}\n\nEnd.`));
  });

  it('links the 101 users of a definition the answer ends with once the stream ends, and only once', () => {
    const users = Array.from({ length: 101 }, (_, i) => `Cites [a] in ${i}.\n\n`).join('');
    const text = `${users}[a]: https://a.example/docs`;
    const planner = new MarkdownPlanner();
    const shown = new ShownHtml();
    for (let at = 0; at < text.length; at += 7) {
      shown.apply(planner.append(text.slice(at, at + 7)));
    }
    assert.ok(!shown.html().includes('href'));
    const ended = planner.end();
    assert.equal(ended.length, 101);
    shown.apply(ended);
    assert.equal(shown.html(), renderMarkdown(text));
    assert.deepEqual(planner.end(), [], 'linked already');
  });

  it('never shows in a finished block an address a render once does not, as blocks crowd the labels the tail defines', function () {
    this.timeout(120_000);
    const users = Array.from({ length: 98 }, (_, i) => `Cites [a] and [b] in ${i}.\n\n`).join('');
    const addresses = (html: string) =>
      new Set([...html.matchAll(/href="([^"]*)"/g)].map(([, href]) => href));
    for (const lines of textsOfLinesAtRandom(LINES, 60, 11, 12)) {
      const text = `${users}${lines}\n\nThe end.`;
      const planner = new MarkdownPlanner();
      const shown = new ShownHtml();
      shown.apply(planner.append(users));
      for (let end = users.length + 1; end <= text.length; end++) {
        shown.apply(planner.append(text.slice(end - 1, end)));
        const whole = addresses(renderMarkdown(text.slice(0, end)));
        for (const href of addresses(shown.html())) {
          assert.ok(whole.has(href), `${href} after ${JSON.stringify(text.slice(users.length, end))}`);
        }
      }
      assert.equal(shown.html(), renderMarkdown(text), JSON.stringify(lines));
    }
  });

  it('links every one of 101 users when the text is shown whole, and a stream changing the definition unlinks them once', () => {
    const users = Array.from({ length: 101 }, (_, i) => `Cites [a] in ${i}.\n\n`).join('');
    const text = `${users}[a]: https://a.example/docs`;
    const planner = new MarkdownPlanner();
    const shown = new ShownHtml();
    shown.apply(planner.setText(text));
    assert.equal(shown.html(), renderMarkdown(text), 'shown whole as a render once');
    // The stream goes on in the worker, from the planner's state.
    const moved = new MarkdownPlanner(planner.state());
    const againOf = (ops: readonly MarkdownOp[]) => ops.filter((op) => op.op === 'block-again').length;
    const first = moved.append('/more');
    shown.apply(first);
    assert.equal(againOf(first), 101, 'each user shows the label as text again');
    assert.ok(!shown.html().includes('href'));
    const next = moved.append('/and more');
    assert.equal(againOf(next), 0, 'then nothing more while the definition grows');
    shown.apply(next);
    const end = moved.append('\n\nEnd.');
    shown.apply(end);
    assert.equal(shown.html(), renderMarkdown(`${text}/more/and more\n\nEnd.`));
  });

  it('takes the tail’s definition away from the blocks that use its label once a block makes them more than 100', () => {
    const references = new LinkReferences(renderMarkdown);
    for (let i = 0; i < 100; i++) {
      references.block(`Cites [a] in ${i}.`, i);
    }
    const env = references.tailEnv();
    renderMarkdown('[a]: https://a.example', env);
    assert.equal(references.tailRendered(env).length, 100, 'the users show the tail’s definition');
    const { html, again } = references.block('Cites [a] in 100.', 100);
    assert.equal(html, renderMarkdown('Cites [a] in 100.'));
    assert.deepEqual(
      again.map(({ index, html: shown }) => [index, shown]),
      Array.from({ length: 100 }, (_, i) => [i, renderMarkdown(`Cites [a] in ${i}.`)]),
    );
    renderMarkdown('[a]: https://a.example/longer', env);
    assert.deepEqual(
      references.tailRendered(env),
      [],
      'a crowded label is not rendered again as the tail grows',
    );
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
