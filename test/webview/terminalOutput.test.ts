import assert from 'node:assert/strict';
import type { ChatPage } from './support/chatPage';
import { RUNNING_COMMAND, snapshot, terminalOutput, turn } from './support/builders';
import { useChatPages } from './support/suite';

/** Lines a block of the output holds, and characters a segment of a long line (webview/render/terminals/terminalLines.ts). */
const LINES_PER_BLOCK = 200;
const SEGMENT_CHARS = 8192;

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
    const segments = [...output.querySelectorAll('.terminal-segment')];
    const result = {
      segments: segments.map((segment) => segment.textContent?.length ?? 0),
      segmentsInline: segments.every((segment) => getComputedStyle(segment).display === 'inline-block'),
      rowHeight: parseFloat(getComputedStyle(output).lineHeight),
      text: output.textContent,
      copied,
      plainCopied,
      height: output.scrollHeight,
      plainHeight: plain.scrollHeight,
      blocks: blocks.length,
      full: output.querySelectorAll('.terminal-lines-full').length,
      firstSkipped: (window as unknown as { __skipped?: WeakMap<Element, boolean> }).__skipped?.get(
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
    // Whole again, as one line being written: only it shows.
    await page.host(terminalOutput({ output: 'only this line', truncated: true }));
    assert.equal(await output.textContent(), 'only this line');
  });

  it('shows a line longer than a segment in segments, read and copied as one line, growing or complete', async () => {
    const page = await chat.openShowing(snapshot({ entries: [RUNNING_COMMAND], turns: [turn('t1')] }));
    const long = Array.from({ length: 3_000 }, (_, i) => `"k${i % 10}":${i % 7},`).join('');
    const before = lines(0, 3);
    await streamOutput(page, before + long, 997);
    const growing = await measured(page);
    assert.equal(growing.text, before + long);
    assert.equal(growing.copied, growing.plainCopied, 'copied as one line');
    const expected = Array.from({ length: Math.ceil(long.length / SEGMENT_CHARS) }, (_, i) =>
      Math.min(SEGMENT_CHARS, long.length - i * SEGMENT_CHARS),
    );
    assert.deepEqual(growing.segments, expected);
    assert.ok(growing.segmentsInline, 'each segment an inline block');
    // A segment wraps on its own: at most a short row more each than the one text.
    assert.ok(growing.height >= growing.plainHeight, `${growing.height} against ${growing.plainHeight}`);
    assert.ok(growing.height <= growing.plainHeight + expected.length * growing.rowHeight + 1);
    assert.ok(growing.atBottom, 'followed at the bottom');

    await streamOutput(page, `\n${lines(3, 5)}`, 997);
    const complete = await measured(page);
    assert.equal(complete.text, `${before}${long}\n${lines(3, 5)}`);
    assert.equal(complete.copied, complete.plainCopied);
    assert.deepEqual(complete.segments, expected, 'the same segments in its block');
    assert.ok(complete.atBottom);
  });
});
