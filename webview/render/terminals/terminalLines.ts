/**
 * Complete lines one block of a terminal's output holds. A growing output is appended to its last block only,
 * so an update lays that block out again, not all the output: 1 MB of output in one text cost ≈ 130 ms a frame.
 */
export const LINES_PER_BLOCK = 200;

/**
 * A terminal's complete lines (each ending with a newline), in blocks of LINES_PER_BLOCK before `end`. Copied
 * or read as text the blocks are one text: each ends with its newline, and a block starts a line anyway.
 */
export class TerminalLines {
  /** The block lines are appended to, and how many it holds. */
  private last: HTMLElement | undefined;
  private lastLines = 0;
  private readonly blocks: HTMLElement[] = [];
  /** Blocks filled by the last update: marked full (skipped off screen) by the next one. */
  private filled: HTMLElement[] = [];

  constructor(private readonly end: Node) {}

  /** Shows `text` (complete lines) instead of what is shown. */
  replace(text: string): void {
    for (const block of this.blocks) {
      block.remove();
    }
    this.blocks.length = 0;
    this.filled = [];
    this.last = undefined;
    this.append(text);
  }

  /** Shows more complete lines after those shown. */
  append(text: string): void {
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
      // A text node added, not Text.appendData: that copies and lays out the block's whole text again.
      block.append(text.slice(at, end));
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
    this.end.parentNode?.insertBefore(block, this.end);
    this.blocks.push(block);
    return block;
  }
}
