import { BlockSplitter, type ClosedFence, type SplitResult } from './blockSplitter';
import { LiveCodeBlock, languageOf } from './codeBlock';
import { plainContinuation } from './proseTail';
import { renderMarkdown } from './renderer';

/**
 * Finished blocks are kept in chunks of this many. A long reply has thousands of blocks: as
 * direct children each with content-visibility, every frame of the stream laid out all of them
 * and the browser checked each one's visibility (profiled: a third of a 2 MB stream's main-thread
 * time). In chunks, only the chunk being filled and the chunks in view are looked at.
 */
const BLOCKS_PER_CHUNK = 32;

/**
 * A message body that grows while the agent streams. Stable segments (see BlockSplitter) are
 * rendered once into their own element and never touched again; only the tail is re-rendered,
 * and a code fence still open in the tail, or a paragraph growing by plain words, is appended to
 * as text instead of re-parsed.
 */
export class StreamingMarkdown {
  readonly element: HTMLElement;
  private readonly tail: HTMLElement;
  private readonly splitter = new BlockSplitter();
  private text = '';
  private tailText: string | undefined;
  /**
   * While the tail is one open fence: its code block, shown live in a block placed where the
   * fence's finished block goes (the tail itself is empty meanwhile). Closing the fence then moves
   * nothing: moved, a long code block cost a removal and, in the browser, its text laid out anew.
   */
  private open: { readonly block: HTMLElement; readonly live: LiveCodeBlock } | undefined;
  /** The tail's one element when tailText rendered as a single paragraph: see proseTail.ts. */
  private tailParagraph: HTMLElement | undefined;
  /** The chunk finished blocks go into, until it holds BLOCKS_PER_CHUNK. */
  private chunk: HTMLElement | undefined;
  private chunkBlocks = 0;

  constructor(className = 'markdown') {
    this.element = document.createElement('div');
    this.element.className = className;
    this.tail = document.createElement('div');
    this.tail.className = 'md-tail';
    this.element.append(this.tail);
  }

  /**
   * Shows `text`. It is compared with what is shown (a cost of its length), so a stream uses
   * `append`; this is for a text that was replaced, or shown for the first time.
   */
  setText(text: string): void {
    if (text === this.text) {
      return;
    }
    let result = this.splitter.update(text);
    if (!result) {
      // The text was replaced rather than extended: start over.
      this.splitter.reset();
      this.element.replaceChildren(this.tail);
      this.chunk = undefined;
      this.open = undefined;
      result = this.splitter.update(text) as SplitResult;
    }
    this.text = text;
    // The splitter may have scanned changed lines again: the code shown live may not be a prefix of the fence's.
    this.commit(result, false);
    this.renderTail(result);
  }

  /** Shows `delta` after the text shown so far: costs the delta and the unstable tail only. */
  append(delta: string): void {
    if (delta === '') {
      return;
    }
    // A rope: V8 joins the pieces only if the whole text is ever read (setText's comparison).
    this.text += delta;
    const result = this.splitter.append(delta);
    // The code shown live is a prefix of the fence's code: the splitter holds back a partial line.
    this.commit(result, true);
    this.renderTail(result);
  }

  /**
   * Renders the newly stable segments. A fence shown live can only be closed by the first segment
   * committed after it (the splitter commits nothing inside a fence): that one finishes its block.
   */
  private commit(result: SplitResult, extended: boolean): void {
    const open = this.open;
    if (result.committed.length > 0) {
      // Closed (kept or rendered): a fence opening in the same update needs a block of its own.
      this.open = undefined;
    }
    for (const [index, segment] of result.committed.entries()) {
      if (index === 0 && open) {
        this.finishOpen(open, segment, extended ? result.closedFence : undefined);
      } else {
        this.appendBlock(segment);
      }
    }
  }

  /** The open fence's block becomes the segment's: its live code block kept when it may be. */
  private finishOpen(
    open: NonNullable<StreamingMarkdown['open']>,
    segment: string,
    fence?: ClosedFence,
  ): void {
    const { block, live } = open;
    block.className = 'md-block';
    if (fence && keepsLiveBlock(live, fence)) {
      live.setCode(fence.code);
      // What markdown-it makes of the segment: the code block and a newline.
      block.append('\n');
    } else if (segment.trim() === '') {
      this.removeOpen(block);
    } else {
      // renderMarkdown escapes raw HTML and vets links: see markdown/renderer.ts.
      block.innerHTML = renderMarkdown(segment);
    }
  }

  private appendBlock(segment: string): void {
    if (segment.trim() === '') {
      return;
    }
    const block = document.createElement('div');
    block.className = 'md-block';
    // renderMarkdown escapes raw HTML and vets links: see markdown/renderer.ts.
    block.innerHTML = renderMarkdown(segment);
    this.placeBlock(block);
  }

  private placeBlock(block: HTMLElement): void {
    if (!this.chunk || this.chunkBlocks >= BLOCKS_PER_CHUNK) {
      this.chunk = document.createElement('div');
      this.chunk.className = 'md-chunk';
      this.chunkBlocks = 0;
      this.element.insertBefore(this.chunk, this.tail);
    }
    this.chunk.append(block);
    this.chunkBlocks++;
    if (this.chunkBlocks === BLOCKS_PER_CHUNK) {
      // Only a full chunk skips rendering off screen: its size estimate then fits (a short
      // message's one chunk would otherwise take the estimate of 32 blocks until first shown).
      this.chunk.classList.add('md-chunk-full');
    }
  }

  /** Takes back the last block placed (an open fence's that is not a block after all). */
  private removeOpen(block: HTMLElement): void {
    const chunk = this.chunk as HTMLElement;
    block.remove();
    this.chunkBlocks--;
    chunk.classList.remove('md-chunk-full');
    if (this.chunkBlocks === 0) {
      // The chunk before, if any, is full: new blocks go after it, in a chunk of their own.
      chunk.remove();
      this.chunk = undefined;
    }
  }

  private renderTail(result: SplitResult): void {
    const fence = result.openFence;
    if (fence) {
      const language = languageOf(fence.language);
      if (this.open?.live.language !== language) {
        if (this.open) {
          this.removeOpen(this.open.block);
        }
        const live = new LiveCodeBlock(language);
        const block = document.createElement('div');
        block.className = 'md-block md-block-open';
        block.append(live.element);
        this.tail.replaceChildren();
        this.placeBlock(block);
        this.open = { block, live };
      }
      this.open.live.setCode(fence.code);
      this.tailText = undefined;
      this.tailParagraph = undefined;
      return;
    }
    if (this.open) {
      // Not an open fence any more, and not closed by a segment (it ends the text, or was rewritten).
      this.removeOpen(this.open.block);
      this.open = undefined;
    }
    const shown = this.tailText;
    const tail = result.tail;
    if (tail === shown) {
      return;
    }
    this.tailText = tail;
    if (this.tailParagraph && shown !== undefined && tail.length > shown.length && tail.startsWith(shown)) {
      const text = plainContinuation(shown, tail.slice(shown.length));
      if (text !== undefined) {
        if (text !== '') {
          this.tailParagraph.append(text);
        }
        return;
      }
    }
    const html = tail.trim() === '' ? '' : renderMarkdown(tail);
    this.tail.innerHTML = html;
    this.tailParagraph = isOneParagraph(html) ? (this.tail.firstElementChild as HTMLElement) : undefined;
  }
}

/**
 * Whether the finished block of a fence shown live may be its live code block (and a newline)
 * rather than the segment rendered again (a long fence's last frame re-rendered all of it): as
 * long as markdown-it would not change the code or the language (carriage returns, NULs, escapes
 * or entities in the info string). `fence` is the segment as the splitter read it.
 */
function keepsLiveBlock(live: LiveCodeBlock, fence: ClosedFence): boolean {
  const { info, code } = fence;
  return !/[&\\\r\0]/.test(info) && languageOf(info) === live.language && !/[\r\0]/.test(code);
}

/** markdown-it's HTML for a text that is one paragraph and nothing else. */
function isOneParagraph(html: string): boolean {
  return html.startsWith('<p>') && html.endsWith('</p>\n') && html.indexOf('<p>', 3) < 0;
}
