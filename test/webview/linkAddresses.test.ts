import assert from 'node:assert/strict';
import {
  LINK_ADDRESSES_PER_CHAR,
  LINK_ADDRESSES_SLACK,
  renderMarkdown,
  renderTailPieces,
} from '../../webview/markdown/renderer';

/** The addresses of the links a render made (inert ones have none). */
function addresses(html: string): string[] {
  return [...html.matchAll(/ href="([^"]*)"/g)].map(([, href]) => href ?? '');
}

/** `uses` paragraphs citing one label, defined at the end with an address of `length` characters. */
function citing(uses: number, length: number): { text: string; address: string } {
  const address = `https://example.com/${'x'.repeat(length - 20)}`;
  const paragraphs = Array.from({ length: uses }, (_, i) => `Paragraph ${i} cites [the source].`);
  return { text: `${paragraphs.join('\n\n')}\n\n[the source]: ${address}`, address };
}

describe('webview: the link addresses one render writes', () => {
  it('writes a label’s address at its uses while they fit the render’s bound, then shows them inert', () => {
    for (const length of [100, 1_000, 1_900, 1_950, 2_000, 4_000, 102_400]) {
      const { text, address } = citing(100, length);
      const html = renderMarkdown(text);
      const bound = text.length * LINK_ADDRESSES_PER_CHAR + LINK_ADDRESSES_SLACK;
      const linked = Math.min(100, Math.floor(bound / address.length));
      assert.deepEqual(addresses(html), Array<string>(linked).fill(address), `an address of ${length}`);
      assert.equal(html.split('title="Link not shown: ').length - 1, 100 - linked, `inert at ${length}`);
    }
  });

  it('keeps the HTML of 2,000 uses of a 100 KB address to a few megabytes (410 MB unbounded)', () => {
    const { text } = citing(2_000, 102_400);
    const html = renderMarkdown(text);
    assert.ok(html.length < 2 * (text.length * LINK_ADDRESSES_PER_CHAR + LINK_ADDRESSES_SLACK) + 200 * 2_000);
  });

  it('never cuts an inline link, an autolink or an image: their addresses are in the text, percent-encoded', () => {
    const path = '路径'.repeat(40);
    const links = Array.from(
      { length: 300 },
      (_, i) =>
        [
          `[link ${i}](https://例子.com/${path}/${i})`,
          `https://例子.com/${path}/${i}`,
          `![image ${i}](https://例子.com/${path}/${i}.png)`,
        ][i % 3],
    );
    const text = links.join('\n\n');
    const html = renderMarkdown(text);
    const shown = addresses(html);
    assert.equal(shown.length, 300);
    assert.ok(
      shown.every((href) => href.length > 9 * path.length),
      'each address percent-encoded',
    );
    assert.ok(!html.includes('Link not shown'));
  });

  it('bounds a streamed tail as it bounds a whole render', () => {
    const { text, address } = citing(100, 4_000);
    const bound = text.length * LINK_ADDRESSES_PER_CHAR + LINK_ADDRESSES_SLACK;
    const html = renderTailPieces(text)
      .map((piece) => (typeof piece === 'string' ? piece : piece.open + piece.items.join('') + piece.close))
      .join('');
    assert.equal(addresses(html).length, Math.floor(bound / address.length));
  });
});
