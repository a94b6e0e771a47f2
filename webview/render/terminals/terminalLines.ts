/**
 * Complete lines one block of a terminal's output holds. A growing output is appended to its last block only,
 * so an update lays that block out again, not all the output: 1 MB of output in one text cost ≈ 130 ms a frame.
 */
export const LINES_PER_BLOCK = 200;

/**
 * Characters of one line laid out together. A longer line (a minified file, a progress line of dots) is shown in
 * segments of this many characters, each an inline block Chromium lays out alone: one line of 1 MB grown in 400
 * updates cost an update ≈ 230 ms at its end as one text, ≈ 100 as appended texts, 4 ms in segments. A segment
 * wraps on its own, so such a line has a short row every 8,192 characters; copied or read it is one line.
 */
export const SEGMENT_CHARS = 8192;

/**
 * A terminal's output as shown in its container: complete lines (each ending with its newline) in blocks of
 * LINES_PER_BLOCK, then the line still being written. Copied or read as text it is one text: a block ends with
 * its newline and starts a line anyway, and a segment holds no newline.
 */
export class TerminalLines {
  /** The block lines are appended to, and how many it holds. */
  private last: HTMLElement | undefined;
  private lastLines = 0;
  private readonly blocks: HTMLElement[] = [];
  /** Blocks filled by the last update: marked full (skipped off screen) by the next one. */
  private filled: HTMLElement[] = [];
  /** The line being written, in segments after the blocks. */
  private readonly current: HTMLElement[] = [];

  constructor(private readonly container: HTMLElement) {}

  /** Shows `lines` (complete lines) and the line being written `current` instead of what is shown. */
  replace(lines: string, current: string): void {
    for (const block of this.blocks) {
      block.remove();
    }
    this.blocks.length = 0;
    this.filled = [];
    this.last = undefined;
    this.append(lines, current);
  }

  /** Shows more complete lines after those shown, and the line being written as `current` now. */
  append(lines: string, current: string): void {
    for (const segment of this.current) {
      segment.remove();
    }
    this.current.length = 0;
    this.appendLines(lines);
    this.extend(current);
  }

  /** Adds `text` (no newline) to the end of the line being written. */
  extend(text: string): void {
    const last = this.current.at(-1);
    const room = last ? SEGMENT_CHARS - (last.textContent?.length ?? 0) : 0;
    if (last && room > 0 && text !== '') {
      // A text node added, not Text.appendData: that copies the segment's text.
      last.append(text.slice(0, room));
    }
    // No segment for no text: an empty inline block would add an empty row below the output.
    for (let at = last ? room : 0; at < text.length; at += SEGMENT_CHARS) {
      const segment = lineSegment(text.slice(at, at + SEGMENT_CHARS));
      this.container.append(segment);
      this.current.push(segment);
    }
  }

  private appendLines(text: string): void {
    // Only a full block skips layout and paint off screen, and only once it was shown full for a frame: it
    // then remembers its size (one skipped in the frame that filled it would count at its size before).
    for (const block of this.filled) {
      block.classList.add('terminal-lines-full');
    }
    this.filled = [];
    for (let at = 0; at < text.length;) {
      const block = this.last && this.lastLines < LINES_PER_BLOCK ? this.last : this.addBlock();
      let end = at;
      while (this.lastLines < LINES_PER_BLOCK && end < text.length) {
        const newline = text.indexOf('\n', end);
        end = newline === -1 ? text.length : newline + 1;
        this.lastLines++;
      }
      appendSegmented(block, text.slice(at, end));
      if (this.lastLines === LINES_PER_BLOCK) {
        this.filled.push(block);
      }
      at = end;
    }
  }

  private addBlock(): HTMLElement {
    const block = document.createElement('div');
    block.className = 'terminal-lines';
    this.last = block;
    this.lastLines = 0;
    this.container.insertBefore(block, this.current[0] ?? null);
    this.blocks.push(block);
    return block;
  }
}

/**
 * Appends complete lines to `block`: as one text node (not Text.appendData, which copies and lays out the block's
 * whole text again), a line longer than SEGMENT_CHARS as its segments and its newline.
 */
function appendSegmented(block: HTMLElement, lines: string): void {
  let from = 0;
  for (let start = 0; start < lines.length;) {
    const newline = lines.indexOf('\n', start);
    const end = newline === -1 ? lines.length : newline;
    if (end - start > SEGMENT_CHARS) {
      if (start > from) {
        block.append(lines.slice(from, start));
      }
      for (let at = start; at < end; at += SEGMENT_CHARS) {
        block.append(lineSegment(lines.slice(at, Math.min(end, at + SEGMENT_CHARS))));
      }
      from = end;
    }
    start = end + 1;
  }
  if (from < lines.length) {
    block.append(lines.slice(from));
  }
}

function lineSegment(text: string): HTMLElement {
  const segment = document.createElement('span');
  segment.className = 'terminal-segment';
  segment.append(text);
  return segment;
}
