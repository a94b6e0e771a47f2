import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { renderMarkdown } from '../../webview/markdown/renderer';
import { appended, events, message, snapshot, turn } from './support/builders';
import type { ChatPage } from './support/chatPage';
import { streamedAndOnce } from './support/streams';
import { useChatPages } from './support/suite';

const OUT = resolve(__dirname, '../../test-results');

/** A long line with markup every few words: a paragraph shown by runs of its words. */
const LONG_LINE = Array.from(
  { length: 20 },
  (_, i) => `word ${i} *em ${i}* and \`c${i}\` then [l${i}](https://example.com/${i}) `,
).join('');

/**
 * Lists, tables and paragraphs of lines that grow in the tail (no blank line lets it split), cut where an item or a row is half
 * written, where the list turns loose, nests, or ends in another block.
 */
const STREAMS: Record<string, string[]> = {
  'a tight list': ['- one\n- tw', 'o\n- three', '\n- four\n'],
  'an item with markup cut in the middle': [
    '- `co',
    'de` and **bo',
    'ld**\n- [a link](https://exa',
    'mple.com)',
  ],
  // A blank line before an indented paragraph of the item, or before another item, turns the list loose: the
  // blank line ends nothing (blockSplitter.ts), the whole list renders again with paragraphs.
  'a list turning loose': ['- one\n- two', '\n\n  more of two', '\n- three'],
  'a loose list, a blank line between items': ['1. one\n\n2', '. two\n\n', '3. three\n\n- another list'],
  'an ordered list from three': ['3. three\n4. fo', 'ur\n5', '. five'],
  'a nested list': ['- a\n  - nested', '\n  - more\n- b', '\n  - again'],
  'a long list nested in one item': [
    '- Files changed:\n  - `a.ts`: one\n  - `b',
    '.ts`: two\n    - deeper\n    - deeper *t',
    'wo*\n  - c\n- Next',
    ' item\n  - its own',
  ],
  'a quote growing by lines, then a list in it': [
    '> line one *em\n> across* lines\n> and',
    ' `code`\n> more\n>\n> - a',
    '\n>   - nested\n> - b',
    '\n>\n> the end',
  ],
  'a table in a quote, then a list in an item in it': [
    '> | a | b |\n> | - | - |\n> | 1',
    ' | 2 |\n> | 3 | 4',
    ' |\n> - x\n>   - y',
    '\n>   - z',
  ],
  'a list that ends in a heading': ['Intro:\n- one\n- two', '\n# Heading', '\nAfter'],
  'a list that changes its bullet': ['- one\n- two', '\n* another list', '\n* two'],
  'a lazy line in the last item': ['- one\n- two', '\nlazy words', '\n- three'],
  'a table growing by rows': ['| a | b |\n| --- | :-: |\n| 1', ' | 2 |\n| 3 | 4', ' |\n| 5 |'],
  'a table whose header changes': ['| a |\n| - |\n| 1 |', '\n| 2 |'],
  'a table then a list': ['| a |\n| - |\n| 1 |\n- after', '\n- two'],
  'lines with markup': ['Line `one`\nline *tw', 'o*\nline th', 'ree `x`\nfour'],
  'a line break inside emphasis': ['Line *one\ntw', 'o* and\nthree', '\nfour'],
  'a hard break': ['Line one  \nline', ' two\\\nline three'],
  'a long line growing by markup and by plain words': [
    LONG_LINE.slice(0, 700),
    LONG_LINE.slice(700),
    'plain words',
    " and more, it's",
    ` with *markup* ${LONG_LINE}`,
    ' plain again',
  ],
};

/** The message's markdown when it is only a tail (no finished block): no chunk, its nodes alone. */
const markdownOf = (page: ChatPage) =>
  page.page.locator('[data-entry-id="s"] .markdown').evaluate((root) => root.innerHTML);

/** Remembers the elements `selector` finds now, to tell later which of them are still the ones shown. */
const rememberShown = (page: ChatPage, selector: string) =>
  page.page.evaluate((all) => {
    (window as unknown as { __kept: Element[] }).__kept = [...document.querySelectorAll(all)];
  }, selector);

/** For each element remembered, whether it is still in the page (the same node, not one made again). */
const whichStillShown = (page: ChatPage, selector: string) =>
  page.page.evaluate((all) => {
    const now = [...document.querySelectorAll(all)];
    return (window as unknown as { __kept: Element[] }).__kept.map((element) => now.includes(element));
  }, selector);

describe('webview: lists, tables and lines growing in a streamed tail', () => {
  const chat = useChatPages();

  for (const [where, markdownWorker] of [
    ['in the markdown worker', true],
    ['on the page', false],
  ] as const) {
    it(`show what a render once shows after every chunk, which is the renderer's HTML (planned ${where})`, async () => {
      const page = await chat.open({ markdownWorker });
      for (const [name, chunks] of Object.entries(STREAMS)) {
        const { streamed, once } = await streamedAndOnce(page, chunks);
        assert.deepEqual(streamed, once, name);
        assert.equal(streamed.at(-1), renderMarkdown(chunks.join('')), `${name}: the renderer's HTML`);
      }
      page.assertClean();
    });

    it(`show the renderer's HTML when a text shown whole (a reopened chat) streams on (planned ${where})`, async () => {
      const page = await chat.open({ markdownWorker });
      for (const [name, [first = '', ...rest]] of Object.entries(STREAMS)) {
        await page.host(snapshot({ entries: [message('agent', 's', first)], turns: [turn('t1')] }));
        for (const [index, chunk] of rest.entries()) {
          await page.host(events(appended('s', chunk)));
          const shown = [first, ...rest.slice(0, index + 1)].join('');
          assert.equal(await markdownOf(page), renderMarkdown(shown), `${name}, chunk ${index + 2}`);
        }
      }
      page.assertClean();
    });
  }

  it('keeps the items and rows shown while the list or table grows, and renders only the last again', async () => {
    const page = await chat.openShowing(
      snapshot({ entries: [message('agent', 's', 'Files:\n- one\n- two\n- thr')], turns: [turn('t1')] }),
    );
    await rememberShown(page, '[data-entry-id="s"] li');
    await page.host(events(appended('s', 'ee\n- four'), appended('s', '\n- five')));
    assert.deepEqual(
      await whichStillShown(page, '[data-entry-id="s"] li'),
      [true, true, false],
      'one, two kept; three again',
    );
    assert.equal(await markdownOf(page), renderMarkdown('Files:\n- one\n- two\n- three\n- four\n- five'));

    await page.host(
      events(appended('s', '\n# Rows\n| file | lines |\n| --- | ---: |\n| a.ts | 1 |\n| b.ts')),
    );
    await rememberShown(page, '[data-entry-id="s"] li, [data-entry-id="s"] tbody tr');
    await page.host(events(appended('s', ' | 2 |\n| c.ts | 3 |')));
    assert.deepEqual(
      await whichStillShown(page, '[data-entry-id="s"] li, [data-entry-id="s"] tbody tr'),
      [true, true, true, true, true, true, false],
      'the list and the first row kept; the row being written again',
    );
    await mkdir(OUT, { recursive: true });
    await page.page.screenshot({ path: `${OUT}/streamed-list-and-table.png` });
    page.assertClean();
  });

  it('keeps the items of a list nested in one item, and the lines of a quote, shown while they grow', async () => {
    const page = await chat.openShowing(
      snapshot({
        entries: [message('agent', 's', '- Files:\n  - one\n  - two\n  - thr')],
        turns: [turn('t1')],
      }),
    );
    await rememberShown(page, '[data-entry-id="s"] li li');
    await page.host(events(appended('s', 'ee\n  - four'), appended('s', '\n  - five')));
    assert.deepEqual(
      await whichStillShown(page, '[data-entry-id="s"] li li'),
      [true, true, false],
      'one, two kept; three again',
    );
    assert.equal(
      await markdownOf(page),
      renderMarkdown('- Files:\n  - one\n  - two\n  - three\n  - four\n  - five'),
    );

    await page.host(
      snapshot({ entries: [message('agent', 's', '> Line `one`\n> line `two`\n> li')], turns: [turn('t1')] }),
    );
    await rememberShown(page, '[data-entry-id="s"] blockquote code');
    await page.host(events(appended('s', 'ne `three`\n> line `four`')));
    assert.deepEqual(
      await whichStillShown(page, '[data-entry-id="s"] blockquote code'),
      [true, true],
      'the first lines kept',
    );
    assert.equal(
      await markdownOf(page),
      renderMarkdown('> Line `one`\n> line `two`\n> line `three`\n> line `four`'),
    );
    page.assertClean();
  });

  it('keeps the lines of a paragraph shown while it grows by lines with markup', async () => {
    const page = await chat.openShowing(
      snapshot({
        entries: [message('agent', 's', 'Line `one`\nline `two`\nline `three` and')],
        turns: [turn('t1')],
      }),
    );
    await page.page.evaluate(() => {
      (window as unknown as { __kept: Element[] }).__kept = [
        ...document.querySelectorAll('[data-entry-id="s"] code'),
      ];
    });
    await page.host(events(appended('s', ' more\nline `four`')));
    const kept = await page.page.evaluate(() => {
      const now = [...document.querySelectorAll('[data-entry-id="s"] code')];
      return (window as unknown as { __kept: Element[] }).__kept.map((element) => now.includes(element));
    });
    assert.deepEqual(kept, [true, true, false], 'lines one and two kept; three again');
    assert.equal(
      await markdownOf(page),
      renderMarkdown('Line `one`\nline `two`\nline `three` and more\nline `four`'),
    );
    page.assertClean();
  });

  it('keeps the runs of a long line shown while it grows by plain words and by words with markup', async () => {
    const page = await chat.openShowing(
      snapshot({ entries: [message('agent', 's', LONG_LINE)], turns: [turn('t1')] }),
    );
    await page.page.evaluate(() => {
      (window as unknown as { __kept: Element[] }).__kept = [
        ...document.querySelectorAll('[data-entry-id="s"] code'),
      ];
    });
    await page.host(events(appended('s', 'plain words')));
    await page.host(events(appended('s', ' and `more` code')));
    const kept = await page.page.evaluate(() => {
      const now = [...document.querySelectorAll('[data-entry-id="s"] code')];
      return (window as unknown as { __kept: Element[] }).__kept.map((element) => now.includes(element));
    });
    assert.equal(kept.length, 20);
    assert.deepEqual(kept.slice(0, 12), Array(12).fill(true), 'the first runs kept');
    assert.equal(kept.at(-1), false, 'the last run shown again');
    assert.equal(await markdownOf(page), renderMarkdown(`${LONG_LINE}plain words and \`more\` code`));
    page.assertClean();
  });
});
