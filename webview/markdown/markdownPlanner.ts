import type { Env } from 'markdown-it';
import { BlockSplitter, type ClosedFence, type SplitResult, type SplitterState } from './blockSplitter';
import { languageOf, type CodeUpdate } from './codeBlock';
import { plainContinuation } from './proseTail';
import { renderedText, renderMarkdown, renderTailPieces } from './renderer';
import { LinkReferences, type BlockAgain, type ReferencesState } from './linkReferences';
import { tailChange, withWordsAdded, type TailChange, type TailPiece } from './tailPieces';

/**
 * What changes in a streaming message's markdown DOM, as plain data: a MarkdownPlanner makes the
 * operations (in the markdown worker, or on the page), MarkdownDom applies them in order.
 */
export type MarkdownOp =
  /** Start over (the text was replaced): every block goes; the tail stays until it is rendered again. */
  | { readonly op: 'reset' }
  /** A finished block after the last one. */
  | { readonly op: 'block'; readonly html: string }
  /** The fence shown live is finished: its block becomes this HTML. */
  | { readonly op: 'finish'; readonly html: string }
  /** The fence shown live is finished as it is shown, after this last code (and a newline, as markdown-it ends it). */
  | { readonly op: 'finish-live'; readonly code: CodeUpdate }
  /** The fence shown live is no block after all: its block goes. */
  | { readonly op: 'drop-open' }
  /** A fence opens at the end of the text: a live code block where its finished block goes; the tail empties. */
  | { readonly op: 'open'; readonly language: string }
  /** More code in the fence shown live. */
  | { readonly op: 'code'; readonly code: CodeUpdate }
  /** The tail rendered again, shown by changing only the pieces that changed (tailPieces.ts). */
  | ({ readonly op: 'tail' } & TailChange)
  /** Plain words after the tail's one paragraph (see proseTail.ts): sent only while the tail is one. */
  | { readonly op: 'tail-text'; readonly text: string }
  /** A finished block (the `index`th placed) rendered again: a link definition after it changed it. */
  | { readonly op: 'block-again'; readonly index: number; readonly html: string };

/** The fence shown live, as the planner knows it: its language and how much code it shows. */
interface OpenFence {
  readonly language: string;
  shownLength: number;
  lastChar: number;
}

/** A planner's whole state as plain data: a stream moves to the markdown worker with it. */
export interface PlannerState {
  readonly splitter: SplitterState;
  readonly open: OpenFence | undefined;
  readonly tailText: string | undefined;
  readonly tailParagraph: boolean;
  readonly tailPieces: readonly TailPiece[] | undefined;
  readonly references: ReferencesState | undefined;
  readonly blocks: number;
}

/**
 * Decides what a growing markdown text changes in its DOM, without a DOM: stable segments (see
 * BlockSplitter) are rendered once; only the tail is rendered again, and a code fence still open
 * in the tail, or a paragraph growing by plain words, grows by text instead of being parsed again.
 * It keeps what the DOM shows as a MarkdownDom would, so its operations apply in order to one.
 */
export class MarkdownPlanner {
  private readonly splitter: BlockSplitter;
  private open: OpenFence | undefined;
  private tailText: string | undefined;
  private tailParagraph: boolean;
  /** The pieces the tail shows; undefined when not known (see planTailText and setText). */
  private tailPieces: readonly TailPiece[] | undefined;
  /** Made for the first block or tail that may use or define a link label (most messages: none). */
  private references: LinkReferences | undefined;
  /** The finished blocks placed, with the open fence's (a block rendered again is found by its index). */
  private blocks: number;
  private ops: MarkdownOp[] = [];

  constructor(state?: PlannerState) {
    this.splitter = state ? BlockSplitter.from(state.splitter) : new BlockSplitter();
    this.open = state?.open && { ...state.open };
    this.tailText = state?.tailText;
    this.tailParagraph = state?.tailParagraph ?? false;
    this.tailPieces = state?.tailPieces;
    this.references = state?.references && new LinkReferences(renderMarkdown, state.references);
    this.blocks = state?.blocks ?? 0;
  }

  state(): PlannerState {
    const { open, tailText, tailParagraph, tailPieces } = this;
    return {
      splitter: this.splitter.state(),
      open: open && { ...open },
      tailText,
      tailParagraph,
      tailPieces,
      references: this.references?.state(),
      blocks: this.blocks,
    };
  }

  /**
   * The operations that show `text` where the text planned so far was shown: extended, or replaced
   * (then everything is planned again). Comparing costs the text's length: a stream uses `append`.
   */
  setText(text: string): MarkdownOp[] {
    let result = this.splitter.update(text);
    if (!result) {
      this.splitter.reset();
      this.open = undefined;
      this.references = undefined;
      this.emit({ op: 'reset' });
      result = this.splitter.update(text) as SplitResult;
    }
    // The splitter may have scanned changed lines again: the code shown live may not be a prefix of the fence's.
    this.commit(result, false);
    this.planTail(result);
    this.linkEveryUse();
    // A text shown whole keeps no blocks of its tail, only a list's, table's or lines' items (what a stream
    // keeps shown as it grows): most texts never change again (each message of a reopened chat: their HTML
    // would be held twice), and one that streams on shows its tail's few blocks anew once.
    if (this.tailPieces?.every((piece) => typeof piece === 'string')) {
      this.tailPieces = undefined;
    }
    return this.take();
  }

  /** The operations that show `delta` after the text planned so far: cost the delta and the unstable tail. */
  append(delta: string): MarkdownOp[] {
    const result = this.splitter.append(delta);
    // The code shown live is a prefix of the fence's code: the splitter holds back a partial line.
    this.commit(result, true);
    this.planTail(result);
    return this.take();
  }

  /** The stream is done (its turn ended): shown from now on as a render once of its text shows it. */
  end(): MarkdownOp[] {
    this.linkEveryUse();
    return this.take();
  }

  /** Links a stream leaves as text while their definition is being written are shown as a render once's are. */
  private linkEveryUse(): void {
    this.emitAgain(this.references?.linkEveryUse() ?? []);
  }

  /** Adds an operation, counting the blocks it places or takes back. */
  private emit(op: MarkdownOp): void {
    if (op.op === 'block' || op.op === 'open') {
      this.blocks++;
    } else if (op.op === 'drop-open') {
      this.blocks--;
    } else if (op.op === 'reset') {
      this.blocks = 0;
    }
    this.ops.push(op);
  }

  /** The finished blocks a link definition changed, rendered again. */
  private emitAgain(again: readonly BlockAgain[]): void {
    for (const { index, html } of again) {
      this.emit({ op: 'block-again', index, html });
    }
  }

  /** A finished block's HTML, and the blocks before it that a link label it defines changes. */
  private renderBlock(segment: string): { html: string; again: readonly BlockAgain[] } {
    if (!this.references && !LinkReferences.mayMatter(segment)) {
      return { html: renderMarkdown(segment), again: [] };
    }
    this.references ??= new LinkReferences(renderMarkdown);
    return this.references.block(segment, this.blocks);
  }

  private take(): MarkdownOp[] {
    const ops = this.ops;
    this.ops = [];
    return ops;
  }

  /**
   * Plans the newly stable segments. A fence shown live can only be closed by the first segment
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
      } else if (segment.trim() !== '') {
        const { html, again } = this.renderBlock(segment);
        this.emit({ op: 'block', html });
        this.emitAgain(again);
      }
    }
  }

  /** The open fence's block becomes the segment's: its live code block kept when it may be. */
  private finishOpen(open: OpenFence, segment: string, fence?: ClosedFence): void {
    if (fence && keepsLiveBlock(open.language, fence)) {
      this.emit({ op: 'finish-live', code: codeUpdate(open, fence.code) });
    } else if (segment.trim() === '') {
      this.emit({ op: 'drop-open' });
    } else {
      this.emit({ op: 'finish', html: renderMarkdown(segment) });
    }
  }

  private planTail(result: SplitResult): void {
    const fence = result.openFence;
    if (fence) {
      const language = languageOf(fence.language);
      if (this.open?.language !== language) {
        if (this.open) {
          this.emit({ op: 'drop-open' });
        }
        this.emit({ op: 'open', language });
        this.open = { language, shownLength: 0, lastChar: NaN };
      }
      const code = codeUpdate(this.open, fence.code);
      if (code.whole || code.text !== '') {
        this.emit({ op: 'code', code });
      }
      this.tailText = undefined;
      this.tailParagraph = false;
      // The fence's block took the tail's place: the tail shows nothing.
      this.tailPieces = [];
      // A tail that is a fence defines no link: definitions it did are gone.
      this.emitAgain(this.references?.tailCleared() ?? []);
      return;
    }
    if (this.open) {
      // Not an open fence any more, and not closed by a segment (it ends the text, or was rewritten).
      this.emit({ op: 'drop-open' });
      this.open = undefined;
    }
    this.planTailText(result.tail);
  }

  private planTailText(tail: string): void {
    const shown = this.tailText;
    if (tail === shown) {
      return;
    }
    this.tailText = tail;
    if (this.tailParagraph && shown !== undefined && tail.length > shown.length && tail.startsWith(shown)) {
      const text = plainContinuation(shown, tail.slice(shown.length));
      if (text !== undefined) {
        if (text !== '') {
          this.emit({ op: 'tail-text', text });
          // A long paragraph keeps its runs shown; a short one is shown anew by the next change.
          this.tailPieces = withWordsAdded(this.tailPieces, renderedText(text));
        }
        return;
      }
    }
    const env: Env = this.references?.tailEnv() ?? {};
    const pieces = tail.trim() === '' ? [] : renderTailPieces(tail, env);
    if (this.references || env.references) {
      this.references ??= new LinkReferences(renderMarkdown);
      this.emitAgain(this.references.tailRendered(env));
    }
    const only = pieces.length === 1 ? pieces[0] : undefined;
    this.tailParagraph =
      only !== undefined &&
      (typeof only === 'string' ? isOneParagraph(only) : only.container === 'paragraph');
    const change = tailChange(this.tailPieces, pieces);
    this.tailPieces = pieces;
    if (change) {
      this.emit({ op: 'tail', ...change });
    }
  }
}

/**
 * What a live code block showing `open` needs to show `code`: only the new part when `code` extends
 * what it shows (the block splitter holds back a line that could still become the closing fence, so
 * an open fence's code only grows). Comparing the shown prefix would cost the block's length on every
 * update; the last shown character is checked as a guard, and anything else is set whole.
 */
function codeUpdate(open: OpenFence, code: string): CodeUpdate {
  const shown = open.shownLength;
  const extends_ = code.length >= shown && (shown === 0 || code.charCodeAt(shown - 1) === open.lastChar);
  open.shownLength = code.length;
  open.lastChar = code.charCodeAt(code.length - 1);
  return extends_ ? { text: code.slice(shown), whole: false } : { text: code, whole: true };
}

/**
 * Whether the finished block of a fence shown live may be its live code block (and a newline)
 * rather than the segment rendered again (a long fence's last frame re-rendered all of it): as
 * long as markdown-it would not change the code or the language (carriage returns, NULs, escapes
 * or entities in the info string). `fence` is the segment as the splitter read it.
 */
function keepsLiveBlock(language: string, fence: ClosedFence): boolean {
  const { info, code } = fence;
  return !/[&\\\r\0]/.test(info) && languageOf(info) === language && !/[\r\0]/.test(code);
}

/** markdown-it's HTML for a text that is one paragraph and nothing else. */
function isOneParagraph(html: string): boolean {
  return html.startsWith('<p>') && html.endsWith('</p>\n') && html.indexOf('<p>', 3) < 0;
}
