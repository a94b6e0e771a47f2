import assert from 'node:assert/strict';
import type { ChatPage } from './support/chatPage';
import { appended, ended, events, message, snapshot, turn } from './support/builders';
import { useChatPages } from './support/suite';

/** Enough paragraphs for full chunks of 32 blocks and a growing one after them. */
const FIRST = 100;
const MORE = 40;
const paragraph = (i: number): string => `Paragraph ${i} of a long answer, a sentence or two of it.\n\n`;

/** The growing chunk's newest finished block: whether it is laid out, and where it is in the log. */
function newestBlock(page: ChatPage) {
  return page.page.evaluate(() => {
    const log = document.querySelector('.transcript') as HTMLElement;
    const blocks = document.querySelectorAll('[data-entry-id="a1"] .md-chunk > .md-block');
    const block = blocks[blocks.length - 1] as HTMLElement;
    const chunk = block.parentElement as HTMLElement;
    const box = block.getBoundingClientRect();
    const view = log.getBoundingClientRect();
    return {
      text: (block.textContent ?? '').trim(),
      chunkVisibility: getComputedStyle(chunk).contentVisibility,
      laidOut: block.checkVisibility({ contentVisibilityAuto: true }),
      inView: box.top >= view.top && box.bottom <= view.bottom,
      atBottom: log.scrollHeight - log.scrollTop - log.clientHeight < 2,
      readingAbove: log.classList.contains('reading-above'),
      scrollTop: log.scrollTop,
    };
  });
}

async function streamParagraphs(page: ChatPage, from: number, count: number): Promise<void> {
  for (let i = from; i < from + count; i++) {
    await page.host(events(appended('a1', paragraph(i))));
  }
}

describe('webview: a streaming answer read from above', () => {
  const chat = useChatPages();

  async function openStreaming(): Promise<ChatPage> {
    const page = await chat.openShowing(
      snapshot({ entries: [message('agent', 'a1', '')], turns: [turn('t1')] }),
      {
        height: 500,
      },
    );
    await streamParagraphs(page, 0, FIRST);
    return page;
  }

  it('while following, the newest blocks are laid out in view as they come', async () => {
    const page = await openStreaming();
    for (let i = FIRST; i < FIRST + 5; i++) {
      await streamParagraphs(page, i, 1);
      // Paragraph i is the tail; the one before it is the newest finished block.
      const newest = await newestBlock(page);
      assert.equal(newest.text, paragraph(i - 1).trim());
      assert.deepEqual(
        {
          visibility: newest.chunkVisibility,
          laidOut: newest.laidOut,
          inView: newest.inView,
          reading: newest.readingAbove,
        },
        { visibility: 'visible', laidOut: true, inView: true, reading: false },
      );
    }
  });

  it("while following, the markdown worker's answer is followed at the start of the next frame, before its layout", async () => {
    const page = await openStreaming();
    // In one step: the frame queued as the worker's answer is applied is the first frame after it, and runs
    // before that frame's layout and its ResizeObserver.
    const gapAtNextFrame = await page.page.evaluate(
      (data) =>
        new Promise<number>((resolve) => {
          window.addEventListener(
            'acp-markdown-settled',
            () =>
              requestAnimationFrame(() => {
                const log = document.querySelector('.transcript') as HTMLElement;
                resolve(log.scrollHeight - log.scrollTop - log.clientHeight);
              }),
            { once: true },
          );
          window.postMessage(data, '*');
        }),
      events(appended('a1', paragraph(FIRST) + paragraph(FIRST + 1))),
    );
    assert.ok(gapAtNextFrame < 2, `the bottom is ${gapAtNextFrame} px below the view at the frame's start`);
  });

  it('while the reader reads above, the newest blocks skip layout; Jump to latest shows them at the bottom', async () => {
    const page = await openStreaming();
    await page.page.locator('.transcript').hover();
    await page.page.mouse.wheel(0, -100_000);
    await page.page.waitForFunction(() => !(document.querySelector('.jump-latest') as HTMLElement).hidden);
    await page.frame();
    const readFrom = (await newestBlock(page)).scrollTop;
    await streamParagraphs(page, FIRST, MORE);
    const reading = await newestBlock(page);
    assert.equal(reading.text, paragraph(FIRST + MORE - 2).trim(), 'every block is in the DOM');
    assert.deepEqual(
      { visibility: reading.chunkVisibility, laidOut: reading.laidOut, reading: reading.readingAbove },
      { visibility: 'auto', laidOut: false, reading: true },
      'the chunk the newest blocks went into is off screen and skipped',
    );
    assert.equal(reading.scrollTop, readFrom, 'the reader is not moved');

    await page.page.locator('.jump-latest').click();
    await page.frame();
    const jumped = await newestBlock(page);
    assert.deepEqual(
      {
        laidOut: jumped.laidOut,
        inView: jumped.inView,
        atBottom: jumped.atBottom,
        reading: jumped.readingAbove,
      },
      { laidOut: true, inView: true, atBottom: true, reading: false },
    );
  });

  it('Jump to latest hides the text beneath it, in Dark Modern (a transparent secondary button) and in a theme setting none', async () => {
    const page = await openStreaming();
    await page.page.locator('.transcript').hover();
    await page.page.mouse.wheel(0, -100_000);
    await page.page.waitForFunction(() => !(document.querySelector('.jump-latest') as HTMLElement).hidden);
    const painted = (withoutSecondary: boolean) =>
      page.page.evaluate((unset) => {
        if (unset) {
          // `initial` makes the variable unset, as a theme without the colour (High Contrast Dark) leaves it.
          document.documentElement.style.setProperty('--vscode-button-secondaryBackground', 'initial');
        }
        const jump = document.querySelector('.jump-latest') as HTMLElement;
        const box = jump.getBoundingClientRect();
        const beneath = document
          .elementsFromPoint(box.left + box.width / 2, box.top + box.height / 2)
          .some((element) => element.closest('.entry-agent') !== null);
        return { beneath, background: getComputedStyle(jump).backgroundColor };
      }, withoutSecondary);
    for (const withoutSecondary of [false, true]) {
      const shown = await painted(withoutSecondary);
      assert.equal(shown.beneath, true, 'the answer’s text lies under the button');
      const alpha = /rgba\([^)]*,\s*([\d.]+)\)/.exec(shown.background)?.[1];
      assert.equal(
        alpha ?? '1',
        '1',
        `the button is painted opaque (${shown.background}; the theme's colour ${withoutSecondary ? 'unset' : 'transparent'})`,
      );
    }
  });

  it('a turn that ends while the reader reads above leaves its answer like any other', async () => {
    const page = await openStreaming();
    await page.page.locator('.transcript').hover();
    await page.page.mouse.wheel(0, -100_000);
    await page.page.waitForFunction(() => !(document.querySelector('.jump-latest') as HTMLElement).hidden);
    await streamParagraphs(page, FIRST, 3);
    await page.host(events(ended(turn('t1', { status: 'completed', stopReason: 'end_turn' }))));
    const finished = await newestBlock(page);
    // The last chunk of a finished answer is not full: shown as before, off screen or not.
    assert.equal(finished.chunkVisibility, 'visible');
    assert.equal(finished.readingAbove, true);
  });
});
