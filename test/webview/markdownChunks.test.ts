import assert from 'node:assert/strict';
import { appended, ended, events, message, snapshot, turn } from './support/builders';
import { useChatPages } from './support/suite';

/** What `contain: layout style paint` computes to. */
const CONTAINED = 'content';

/** 100 paragraphs: each becomes its own finished block once the next one starts. */
const PARAGRAPHS = Array.from({ length: 100 }, (_, i) => `Paragraph ${i} of a long answer.`);

describe('webview: long replies keep finished blocks in chunks', () => {
  const chat = useChatPages();

  it('puts finished blocks in chunks of 32, in order, and only full chunks skip rendering off screen', async () => {
    const page = await chat.openShowing(
      snapshot({ entries: [message('agent', 'a1', '')], turns: [turn('t1')] }),
    );
    for (const paragraph of PARAGRAPHS) {
      await page.host(events(appended('a1', `${paragraph}\n\n`)));
    }
    const shape = await page.page.locator('[data-entry-id="a1"] .markdown').evaluate((root) => ({
      children: Array.from(root.children).map((child) => ({
        className: child.className,
        blocks: child.querySelectorAll(':scope > .md-block').length,
        visibility: getComputedStyle(child).contentVisibility,
        contain: getComputedStyle(child).contain,
      })),
      paragraphs: Array.from(root.querySelectorAll('p')).map((p) => p.textContent),
    }));
    // 99 finished blocks (the last paragraph is still the tail): 32 + 32 + 32 + 3, then the tail's paragraph.
    assert.deepEqual(shape.children, [
      { className: 'md-chunk md-chunk-full', blocks: 32, visibility: 'auto', contain: CONTAINED },
      { className: 'md-chunk md-chunk-full', blocks: 32, visibility: 'auto', contain: CONTAINED },
      { className: 'md-chunk md-chunk-full', blocks: 32, visibility: 'auto', contain: CONTAINED },
      // Contained before it is full: filling it then changes no layout containment of 32 blocks at once.
      { className: 'md-chunk', blocks: 3, visibility: 'visible', contain: CONTAINED },
      // The tail: the last paragraph, after the chunks with no element around it.
      { className: '', blocks: 0, visibility: 'visible', contain: 'none' },
    ]);
    assert.deepEqual(shape.paragraphs, PARAGRAPHS);
  });

  it('spaces paragraphs across a chunk boundary like any two paragraphs', async () => {
    const page = await chat.openShowing(
      snapshot({ entries: [message('agent', 'a1', PARAGRAPHS.slice(0, 40).join('\n\n'))] }),
    );
    const gaps = await page.page.locator('[data-entry-id="a1"] .markdown').evaluate((root) => {
      const boxes = Array.from(root.querySelectorAll('p')).map((p) => p.getBoundingClientRect());
      return boxes.slice(1).map((box, i) => Math.round(box.top - (boxes[i] as DOMRect).bottom));
    });
    // Paragraph 31 is the last of the first chunk, 32 the first of the next.
    assert.equal(gaps[31], gaps[30]);
    assert.equal(new Set(gaps).size, 1, `one gap everywhere: ${[...new Set(gaps)].join(', ')}`);
  });

  it('shows an open fence in the block it will finish as, at a chunk boundary too, like a render once', async () => {
    const page = await chat.open();
    const html = () => page.page.locator('[data-entry-id="a1"] .markdown').evaluate((root) => root.innerHTML);
    for (const before of [31, 32]) {
      // The fence is the 32nd or 33rd block; closed at the very end of a chunk it is the tail's
      // (markdown closes it) until the next line commits it; then a fence markdown does not keep.
      const chunks = [
        `${PARAGRAPHS.slice(0, before).join('\n\n')}\n\n`,
        '```ts\na();\n',
        '```',
        '\n\n```a&amp;b\nc\n',
        '```\n\nAfter',
      ];
      await page.host(snapshot({ entries: [message('agent', 'a1', '')], turns: [turn('t1')] }));
      const streamed: string[] = [];
      for (const chunk of chunks) {
        await page.host(events(appended('a1', chunk)));
        streamed.push(await html());
      }
      const once: string[] = [];
      for (let end = 1; end <= chunks.length; end++) {
        await page.host(snapshot({ entries: [message('agent', 'a1', chunks.slice(0, end).join(''))] }));
        once.push(await html());
      }
      assert.deepEqual(streamed, once, `after ${before} paragraphs`);
      assert.match(streamed[1] ?? '', /<div class="md-block md-block-open"><div class="code-block">/);
    }
    page.assertClean();
  });

  for (const [where, markdownWorker] of [
    ['in the markdown worker', true],
    ['on the page', false],
  ] as const) {
    it(`links a reference defined at the end in blocks of every chunk, streamed and shown whole (${where})`, async () => {
      const page = await chat.open({ markdownWorker });
      const uses = PARAGRAPHS.slice(0, 40).map((paragraph, i) =>
        i % 13 === 0 ? `${paragraph} See [the Docs].` : paragraph,
      );
      const text = `${uses.join('\n\n')}\n\n[the docs]: https://example.com/docs "Docs"`;
      const links = () =>
        page.page.locator('[data-entry-id="a1"] .markdown').evaluate((root) => ({
          linked: root.querySelectorAll('a[href="https://example.com/docs"]').length,
          bracketed: (root.textContent ?? '').includes('[the Docs]'),
          definitionShown: (root.textContent ?? '').includes('https://example.com/docs'),
        }));
      await page.host(snapshot({ entries: [message('agent', 'a1', '')], turns: [turn('t1')] }));
      for (let at = 0; at < text.length; at += 97) {
        await page.host(events(appended('a1', text.slice(at, at + 97))));
      }
      const expected = { linked: 4, bracketed: false, definitionShown: false };
      assert.deepEqual(await links(), expected, 'streamed: blocks 0, 13, 26 and 39 linked');
      await page.host(snapshot({ entries: [message('agent', 'a1', text)], turns: [turn('t1')] }));
      assert.deepEqual(await links(), expected, 'shown whole');
      page.assertClean();
    });

    it(`links a label used in 101 blocks, defined as the answer ends, once its turn ends (${where})`, async () => {
      const page = await chat.open({ markdownWorker });
      const uses = Array.from({ length: 101 }, (_, i) => `Paragraph ${i} cites [the docs].`);
      const text = `${uses.join('\n\n')}\n\n[the docs]: https://example.com/docs`;
      const html = () =>
        page.page.locator('[data-entry-id="a1"] .markdown').evaluate((root) => root.innerHTML);
      const linked = () =>
        page.page
          .locator('[data-entry-id="a1"] .markdown')
          .evaluate((root) => root.querySelectorAll('a[href="https://example.com/docs"]').length);
      await page.host(snapshot({ entries: [message('agent', 'a1', '')], turns: [turn('t1')] }));
      for (let at = 0; at < text.length; at += 211) {
        await page.host(events(appended('a1', text.slice(at, at + 211))));
      }
      assert.equal(await linked(), 0, 'more users than a frame renders again: text while the turn runs');
      await page.host(events(ended(turn('t1', { status: 'completed', stopReason: 'end_turn', endedAt: 1 }))));
      assert.equal(await linked(), 101, 'every use linked once the turn ended');
      const streamed = await html();
      await page.host(
        snapshot({ entries: [message('agent', 'a1', text)], turns: [turn('t1', { status: 'completed' })] }),
      );
      assert.equal(streamed, await html(), 'as the answer shown whole');
      page.assertClean();
    });
  }
});
