import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { appended, events, message, snapshot, turn } from './support/builders';
import { streamedAndOnce } from './support/streams';
import { useChatPages } from './support/suite';

const OUT = resolve(__dirname, '../../test-results');

/**
 * Streams that end a chunk where a paragraph tail growing by plain words (appended to the DOM
 * without a re-parse) meets markdown: each chunk after the first is a continuation that could
 * change the paragraph's structure, so the view must fall back to the parser for it.
 */
const STREAMS: Record<string, string[]> = {
  'plain words': ['Plain words', ' and more', ' words, then; "quotes" too', ' and an end.'],
  'half of **': ['Some prose', ' then *', '*bold** text'],
  'a backtick': ['Some prose', ' then `', 'code` after'],
  'a <': ['Some prose', ' then <', 'b> tag'],
  'an &': ['Some prose', ' then &', 'amp; entity'],
  'an entity completed': ['Some prose &amp', '; done'],
  'a line starting with #': ['Some prose', '\n#', ' Heading'],
  'a line starting with -': ['Some prose', '\n-', ' item'],
  'a line starting with 1.': ['Some prose', '\n1', '. item'],
  'a line starting with >': ['Some prose', '\n>', ' quote'],
  'a line starting with |': ['a | b', '\n|', ' --- | --- |'],
  'a fence': ['Some prose', '\n``', '`js\ncode();\n```\n', 'after'],
  'a setext ===': ['Some prose', '\n==', '=\n\nNext'],
  'a setext ---': ['Some prose', '\n--', '-'],
  'a lazy continuation': ['> quoted', '\nlazy', ' words continue'],
  'a link growing': ['See https://example.com/pa', 'th and', ' more'],
  'emphasis touched': ['A _done_', 'bar', ' words'],
  'trailing spaces': ['Words  ', 'more', '  ', 'end'],
};

/** Fences shown live while they stream, then closed: the finished block reuses the live one when it may. */
const FENCES: Record<string, string[]> = {
  'a fence with a language': ['Intro\n\n```ts\nconst a = 1;\n', "const b = '<&>';\n", '```\n\nAfter'],
  'no language': ['```\nplain\n', '```\n', 'After'],
  'tildes and a longer close': ['~~~~py extra words\nprint(1)\n', '~~~~~\n\nAfter'],
  'a close split in the middle': ['```js\nx();\n`', '`', '`\nAfter'],
  'an empty fence': ['```sh\n', '```\n'],
  'two fences of one language in one chunk': ['```ts\na();\n', '```\n```ts\nb();\n```\n', 'Done'],
  'closed at the very end, no newline': ['```ts\na();\n', '```'],
  'an entity in the info string': ['```a&amp;b\nx\n', '```\nAfter'],
  'an escape in the info string': ['```c\\+\\+\nx\n', '```\nAfter'],
  'carriage returns': ['```ts\r\na();\r\n', '```\r\n\r\nAfter'],
  'a NUL in the code': ['```ts\na(\0);\n', '```\nAfter'],
  'a closing marker too short': ['````ts\na();\n```\n', 'b();\n````\nAfter'],
  'languages with marks, one after another': [
    '```c++\na;\n```\n\n```F#\nb\n',
    '```\n\n```objective-c x\nc\n',
    '```\n',
  ],
};

describe('webview: a streamed paragraph tail matches its render once', () => {
  const chat = useChatPages();

  // Streams move to the markdown worker as soon as it runs; a page where it cannot plans them itself.
  for (const [where, markdownWorker] of [
    ['in the markdown worker', true],
    ['on the page', false],
  ] as const) {
    it(`after every chunk, whatever markdown the next chunk starts or completes (planned ${where})`, async () => {
      const page = await chat.open({ markdownWorker });
      for (const [name, chunks] of Object.entries(STREAMS)) {
        const { streamed, once } = await streamedAndOnce(page, chunks);
        assert.deepEqual(streamed, once, name);
      }
      page.assertClean();
    });

    it(`closes a streamed fence like a render once, after every chunk (planned ${where})`, async () => {
      const page = await chat.open({ markdownWorker });
      for (const [name, chunks] of Object.entries(FENCES)) {
        const { streamed, once } = await streamedAndOnce(page, chunks);
        assert.deepEqual(streamed, once, name);
      }
      page.assertClean();
    });
  }

  it('keeps the live code block as the finished block when its fence closes', async () => {
    const page = await chat.open();
    await page.host(
      snapshot({ entries: [message('agent', 's', 'Intro\n\n```ts\na();\n')], turns: [turn('t1')] }),
    );
    await page.page.evaluate(() => {
      const w = window as unknown as { __live: Element | null; __block: Element | null };
      w.__live = document.querySelector('[data-entry-id="s"] .md-block-open .code-block');
      w.__block = w.__live?.parentElement ?? null;
    });
    assert.equal(
      await page.page
        .locator('[data-entry-id="s"] .markdown')
        .evaluate((root) => root.lastElementChild?.className),
      'md-chunk',
      'the tail is empty: it is its block',
    );
    // Last in the message, as the tail's last element is: no margin below it.
    const live = page.page.locator('[data-entry-id="s"] .md-block-open .code-block');
    assert.equal(await live.evaluate((block) => getComputedStyle(block).marginBottom), '0px');
    await mkdir(OUT, { recursive: true });
    await page.page.screenshot({ path: `${OUT}/streamed-fence-open.png` });
    await page.page.evaluate(() => {
      const w = window as unknown as { __chunk: Element | null; __block: Element | null };
      w.__chunk = w.__block?.parentElement ?? null;
    });
    await page.host(events(appended('s', 'b();\n```\n\nAfter')));
    const kept = await page.page.evaluate(() => {
      const w = window as unknown as {
        __live: Element | null;
        __block: Element | null;
        __chunk: Element | null;
      };
      const blocks = document.querySelectorAll('[data-entry-id="s"] .md-block .code-block');
      return {
        live: w.__live !== null && blocks.length === 1 && blocks[0] === w.__live,
        // Closing the fence moved nothing: the block the fence was shown in is its finished block.
        block: w.__live?.parentElement === w.__block && w.__block?.parentElement === w.__chunk,
        className: w.__block?.className,
      };
    });
    assert.deepEqual(
      kept,
      { live: true, block: true, className: 'md-block' },
      'the live block became the finished one',
    );
    assert.equal(await page.page.locator('[data-entry-id="s"] .md-block code').textContent(), 'a();\nb();\n');
    await mkdir(OUT, { recursive: true });
    await page.page.screenshot({ path: `${OUT}/streamed-fence-closed.png` });
    page.assertClean();
  });

  it('grows the paragraph in place while plain words arrive, and re-renders it when markdown does', async () => {
    const page = await chat.open();
    await page.host(snapshot({ entries: [message('agent', 's', 'Done.\n\nPlain')], turns: [turn('t1')] }));
    const keep = () =>
      page.page.evaluate(() => {
        const w = window as unknown as { __p: Element | null };
        w.__p = document.querySelector('[data-entry-id="s"] .markdown > p');
      });
    const kept = () =>
      page.page.evaluate(() => {
        const w = window as unknown as { __p: Element | null };
        return w.__p !== null && w.__p === document.querySelector('[data-entry-id="s"] .markdown > p');
      });
    await keep();
    await page.host(events(appended('s', ' words'), appended('s', ' and more')));
    assert.equal(await kept(), true, 'plain words are appended to the paragraph shown');
    await page.host(events(appended('s', ' *stressed*')));
    assert.equal(await kept(), false, 'emphasis is parsed');
    // The tail: the markdown's nodes after its finished blocks' chunk.
    const tail = await page.page.locator('[data-entry-id="s"] .markdown').evaluate((root) => {
      const html: string[] = [];
      for (let node = root.querySelector(':scope > .md-chunk')?.nextSibling; node; node = node.nextSibling) {
        html.push(node instanceof Element ? node.outerHTML : (node.textContent ?? ''));
      }
      return html.join('');
    });
    assert.equal(tail, '<p>Plain words and more <em>stressed</em></p>\n');
    page.assertClean();
  });
});
