import { LiveCodeBlock } from './codeBlock';
import type { MarkdownOp } from './markdownPlanner';
import { TailDom } from './tailDom';

/**
 * Finished blocks are kept in chunks of this many. A long reply has thousands of blocks: as
 * direct children each with content-visibility, every frame of the stream laid out all of them
 * and the browser checked each one's visibility (profiled: a third of a 2 MB stream's main-thread
 * time). In chunks, only the chunk being filled and the chunks in view are looked at.
 */
const BLOCKS_PER_CHUNK = 32;

/**
 * A message's markdown DOM, changed only by a MarkdownPlanner's operations, in order: finished
 * blocks in chunks, a fence shown live in the block it finishes as, and the tail after them — the
 * tail's own nodes, after the last chunk, with no element around them (a short message is its
 * paragraph and nothing more).
 */
export class MarkdownDom {
  readonly element: HTMLElement;
  /**
   * While the tail is one open fence: its code block, shown live in a block placed where the
   * fence's finished block goes (the tail itself is empty meanwhile). Closing the fence then moves
   * nothing: moved, a long code block cost a removal and, in the browser, its text laid out anew.
   */
  private open: { readonly block: HTMLElement; readonly live: LiveCodeBlock } | undefined;
  /** The chunk finished blocks go into, until it holds BLOCKS_PER_CHUNK. */
  private chunk: HTMLElement | undefined;
  private chunkBlocks = 0;
  private readonly tail: TailDom;

  constructor(className: string) {
    this.element = document.createElement('div');
    this.element.className = className;
    this.tail = new TailDom(this.element);
  }

  apply(ops: readonly MarkdownOp[]): void {
    for (const op of ops) {
      this.applyOne(op);
    }
  }

  private applyOne(op: MarkdownOp): void {
    switch (op.op) {
      case 'reset':
        for (const chunk of this.element.querySelectorAll(':scope > .md-chunk')) {
          chunk.remove();
        }
        this.chunk = undefined;
        this.open = undefined;
        return;
      case 'block':
        this.placeBlock(htmlBlock(op.html));
        return;
      case 'finish':
      case 'finish-live':
        this.finishOpen(op);
        return;
      case 'drop-open':
        this.removeOpen();
        return;
      case 'open':
        this.openFence(op.language);
        return;
      case 'code':
        this.open?.live.update(op.code);
        return;
      case 'tail':
        // The pieces' HTML is the renderer's: raw HTML escaped, links vetted (markdown/renderer.ts).
        this.tail.apply(op);
        return;
      case 'tail-text':
        this.tail.addWords(op.text);
        return;
      case 'block-again': {
        const chunk = this.element.children[Math.floor(op.index / BLOCKS_PER_CHUNK)];
        const block = chunk?.children[op.index % BLOCKS_PER_CHUNK];
        if (block) {
          // The planner's HTML is renderMarkdown's: raw HTML escaped, links vetted (markdown/renderer.ts).
          block.innerHTML = op.html;
        }
        return;
      }
      default: {
        const never: never = op;
        throw new Error(`Unknown markdown operation ${JSON.stringify(never)}`);
      }
    }
  }

  private finishOpen(op: Extract<MarkdownOp, { op: 'finish' | 'finish-live' }>): void {
    const open = this.open;
    if (!open) {
      return;
    }
    this.open = undefined;
    open.block.className = 'md-block';
    if (op.op === 'finish-live') {
      open.live.update(op.code);
      // What markdown-it makes of the segment: the code block and a newline.
      open.block.append('\n');
    } else {
      open.block.innerHTML = op.html;
    }
  }

  private openFence(language: string): void {
    const live = new LiveCodeBlock(language);
    const block = document.createElement('div');
    block.className = 'md-block md-block-open';
    block.append(live.element);
    this.tail.clear();
    this.placeBlock(block);
    this.open = { block, live };
  }

  private placeBlock(block: HTMLElement): void {
    if (!this.chunk || this.chunkBlocks >= BLOCKS_PER_CHUNK) {
      this.chunk = document.createElement('div');
      this.chunk.className = 'md-chunk';
      this.chunkBlocks = 0;
      this.element.insertBefore(this.chunk, this.tail.first() ?? null);
    }
    this.chunk.append(block);
    this.chunkBlocks++;
    if (this.chunkBlocks === BLOCKS_PER_CHUNK) {
      // Only a full chunk skips rendering off screen: its size estimate then fits (a short
      // message's one chunk would otherwise take the estimate of 32 blocks until first shown).
      this.chunk.classList.add('md-chunk-full');
    }
  }

  /** Takes back the open fence's block, the last block placed (it is not a block after all). */
  private removeOpen(): void {
    const open = this.open;
    const chunk = this.chunk;
    this.open = undefined;
    if (!open || !chunk) {
      return;
    }
    open.block.remove();
    this.chunkBlocks--;
    chunk.classList.remove('md-chunk-full');
    if (this.chunkBlocks === 0) {
      // The chunk before, if any, is full: new blocks go after it, in a chunk of their own.
      chunk.remove();
      this.chunk = undefined;
    }
  }
}

function htmlBlock(html: string): HTMLElement {
  const block = document.createElement('div');
  block.className = 'md-block';
  // The planner's HTML is renderMarkdown's: raw HTML escaped, links vetted (markdown/renderer.ts).
  block.innerHTML = html;
  return block;
}
