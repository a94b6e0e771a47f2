import assert from 'node:assert/strict';
import type { ChatPage } from './support/chatPage';
import { RUNNING_COMMAND, snapshot, terminalOutput, turn } from './support/builders';
import { useChatPages } from './support/suite';

/** Lines a block of the output holds (webview/render/terminals/terminalLines.ts). */
const LINES_PER_BLOCK = 200;

/** `count` short lines (none wraps in the sidebar), each ending with a newline. */
const lines = (from: number, count: number): string =>
  Array.from({ length: count }, (_, i) => `line ${from + i}: ok\n`).join('');

/** Streams `text` as appended deltas cut every `size` characters, so lines span two deltas. */
async function streamOutput(page: ChatPage, text: string, size: number): Promise<void> {
  for (let at = 0; at < text.length; at += size) {
    await page.host(terminalOutput({ output: text.slice(at, at + size), append: true }));
  }
}

/**
 * The output shown, beside a plain `pre.terminal-output` holding the same text in one node, placed next to it:
 * what each copies (a selection of all of it), how tall each is, and the blocks.
 */
function measured(page: ChatPage) {
  return page.page.evaluate(() => {
    const output = document.querySelector('[data-entry-id="e1"] .terminal-output') as HTMLElement;
    const plain = document.createElement('pre');
    plain.className = 'terminal-output';
    plain.textContent = output.textContent;
    output.after(plain);
    // What a selection of all of each copies (no named function: the page gets this code as it is).
    const [copied, plainCopied] = [output, plain].map((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      const selection = getSelection() as Selection;
      selection.removeAllRanges();
      selection.addRange(range);
      return selection.toString();
    });
    const blocks = [...output.querySelectorAll('.terminal-lines')];
    const result = {
      text: output.textContent,
      copied,
      plainCopied,
      height: output.scrollHeight,
      plainHeight: plain.scrollHeight,
      blocks: blocks.length,
      full: output.querySelectorAll('.terminal-lines-full').length,
      firstSkipped: (window as unknown as { __skipped: WeakMap<Element, boolean> }).__skipped.get(
        blocks[0] as Element,
      ),
      atBottom: output.scrollHeight - output.scrollTop - output.clientHeight < 2,
    };
    plain.remove();
    return result;
  });
}

describe('webview: a long terminal output', () => {
  const chat = useChatPages();

  it('streams in blocks that read, copy and measure as one text, the blocks out of view skipped', async () => {
    const page = await chat.openShowing(snapshot({ entries: [RUNNING_COMMAND], turns: [turn('t1')] }));
    // Whether each block skips its contents now, as Chromium says it (the event does not bubble: captured).
    await page.page.evaluate(() => {
      const skipped = new WeakMap<Element, boolean>();
      (window as unknown as { __skipped: typeof skipped }).__skipped = skipped;
      document.addEventListener(
        'contentvisibilityautostatechange',
        (event) => skipped.set(event.target as Element, (event as Event & { skipped: boolean }).skipped),
        true,
      );
    });
    const text = lines(0, 1_250);
    await streamOutput(page, text, 997);
    const shown = await measured(page);
    assert.equal(shown.text, text);
    assert.equal(shown.copied, shown.plainCopied);
    assert.equal(shown.height, shown.plainHeight);
    assert.deepEqual(
      { blocks: shown.blocks, full: shown.full, firstSkipped: shown.firstSkipped, atBottom: shown.atBottom },
      { blocks: Math.ceil(1_250 / LINES_PER_BLOCK), full: 6, firstSkipped: true, atBottom: true },
    );
  });

  it('keeps the reader where they scrolled in the output while it grows, and shows a replaced output whole', async () => {
    const page = await chat.openShowing(snapshot({ entries: [RUNNING_COMMAND], turns: [turn('t1')] }));
    await streamOutput(page, lines(0, 600), 2_000);
    const output = page.page.locator('[data-entry-id="e1"] .terminal-output');
    await output.evaluate((element) => {
      element.scrollTop = 1_000;
    });
    await page.frame();
    await streamOutput(page, lines(600, 300), 2_000);
    assert.equal(await output.evaluate((element) => element.scrollTop), 1_000);
    assert.equal(await output.textContent(), lines(0, 900));

    // A full message (the host cut the output's start): shown instead, in blocks from its first line.
    await page.host(terminalOutput({ output: lines(500, 400), truncated: true }));
    assert.equal(await output.textContent(), lines(500, 400));
    assert.equal(await output.locator('.terminal-lines').count(), 2);
  });
});
