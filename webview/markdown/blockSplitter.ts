/**
 * Splits a growing markdown text into a stable prefix and an unstable tail, so a streaming message
 * is parsed incrementally: each stable segment is rendered once and kept, only the tail is
 * re-rendered. Re-parsing the whole reply per chunk is quadratic (cline#13209); this is linear.
 *
 * A segment ends where what follows cannot change how it renders:
 *  - at a blank line outside a fence, once the next non-blank line starts at column 0 (an indented
 *    line could continue a list item or an indented code block across the blank line) and, after a
 *    list, is not a list item (it could go on with the list and make it loose: every item renders
 *    again with paragraphs);
 *  - before a fence that opens at column 0 (it ends any paragraph) and after it closes.
 * Only complete lines are scanned, each once; the scan state carries over between updates.
 */

export interface SplitResult {
  /** Newly stable segments, in order, since the previous update. */
  readonly committed: readonly string[];
  /** Everything after the stable prefix. */
  readonly tail: string;
  /** Set when the tail is exactly one top-level fence that is still open. */
  readonly openFence?: { readonly language: string; readonly code: string };
  /** Set when the first committed segment is a top-level fence (closed): see ClosedFence. */
  readonly closedFence?: ClosedFence;
}

/** A closed top-level fence as the splitter read it, so that no one has to read it again. */
export interface ClosedFence {
  /** What follows the opening marker on its line, untrimmed (a carriage return ending the line dropped). */
  readonly info: string;
  /** The lines between the opening and the closing fence lines. */
  readonly code: string;
}

/** A splitter's whole state as plain data: a stream moves to the markdown worker with it (structured clone). */
export interface SplitterState {
  readonly text: string;
  readonly buffer: string;
  readonly stableEnd: number;
  readonly scanPos: number;
  readonly fence: Fence | undefined;
  readonly blankEnd: number | undefined;
  readonly listSeen: boolean;
}

interface Fence {
  readonly char: string;
  readonly length: number;
  readonly topLevel: boolean;
  /** Untrimmed, as ClosedFence's. */
  readonly info: string;
  /** Where the opening fence line starts. */
  readonly openStart: number;
  /** Where the line after the opening fence starts. */
  readonly bodyStart: number;
}

const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const BLANK = /^[ \t]*$/;
/** A line that may start a list item (a thematic break such as `- - -` too: holding one back only waits). */
const LIST_ITEM = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
/** The first character of a line that may yet turn out to start a list item at column 0. */
const LIST_ITEM_START = /[-+*\d]/;

export class BlockSplitter {
  /** Everything received so far (a rope of the deltas; only read when a whole text is compared). */
  private text = '';
  /** The unstable part, from `stableEnd` on: the only text a delta makes us look at again. */
  private buffer = '';
  private stableEnd = 0;
  private scanPos = 0;
  private fence: Fence | undefined;
  /** Just after the last blank line outside a fence, while waiting to see the next line. */
  private blankEnd: number | undefined;
  /**
   * Whether a line of the unstable part began a list item: a list item after a blank line may then
   * belong to the same list, so the blank line ends nothing yet (an over-cautious yes only waits).
   */
  private listSeen = false;

  /** A splitter that goes on where the one whose `state()` this is left off. */
  static from(state: SplitterState): BlockSplitter {
    const splitter = new BlockSplitter();
    splitter.text = state.text;
    splitter.buffer = state.buffer;
    splitter.stableEnd = state.stableEnd;
    splitter.scanPos = state.scanPos;
    splitter.fence = state.fence;
    splitter.blankEnd = state.blankEnd;
    splitter.listSeen = state.listSeen;
    return splitter;
  }

  state(): SplitterState {
    const { text, buffer, stableEnd, scanPos, fence, blankEnd, listSeen } = this;
    return { text, buffer, stableEnd, scanPos, fence, blankEnd, listSeen };
  }

  /** The stable prefix's length. */
  get stableLength(): number {
    return this.stableEnd;
  }

  /**
   * Takes the whole text so far. When it no longer extends the stable prefix (the entry was
   * replaced), returns undefined: the caller starts over with `reset()`. Comparing the whole text
   * costs its length: a stream should use `append`.
   */
  update(text: string): SplitResult | undefined {
    if (text.length >= this.text.length && text.startsWith(this.text)) {
      return this.append(text.slice(this.text.length));
    }
    if (!text.startsWith(this.text.slice(0, this.stableEnd))) {
      return undefined;
    }
    // Only lines after the stable prefix changed: scan them again.
    this.rewindTo(this.stableEnd);
    this.text = text;
    this.buffer = text.slice(this.stableEnd);
    return this.scan();
  }

  /**
   * Takes what was appended since the last call. Costs the delta plus the unstable tail: the
   * stable prefix is never looked at again.
   */
  append(delta: string): SplitResult {
    this.text += delta;
    this.buffer += delta;
    return this.scan();
  }

  reset(): void {
    this.text = '';
    this.buffer = '';
    this.rewindTo(0);
  }

  /** Scans the complete lines not seen yet and says what became stable. */
  private scan(): SplitResult {
    const committed: string[] = [];
    let closedFence: ClosedFence | undefined;
    const commit = (end: number, fence?: ClosedFence): void => {
      if (end > this.stableEnd) {
        if (fence && committed.length === 0) {
          closedFence = fence;
        }
        const cut = end - this.stableEnd;
        committed.push(this.buffer.slice(0, cut));
        this.buffer = this.buffer.slice(cut);
        this.stableEnd = end;
        this.listSeen = false;
      }
    };

    // Positions are absolute; the buffer starts at stableEnd.
    for (;;) {
      const newline = this.buffer.indexOf('\n', this.scanPos - this.stableEnd);
      if (newline < 0) {
        break;
      }
      const lineStart = this.scanPos;
      const next = this.stableEnd + newline + 1;
      this.scanPos = next;
      if (this.fence && !mayCloseFence(this.buffer, lineStart - this.stableEnd, this.fence.char)) {
        // Most lines of a stream are code inside a fence: only a line of its marker can end it.
        continue;
      }
      const line = this.buffer
        .slice(lineStart - this.stableEnd, next - 1 - this.stableEnd)
        .replace(/\r$/, '');
      this.scanLine(line, lineStart, next, commit);
    }

    // The first character of the line being received is enough to end a block after a blank line,
    // unless, after a list, it may start another item.
    const partialStart = this.buffer[this.scanPos - this.stableEnd];
    if (
      this.fence === undefined &&
      this.blankEnd !== undefined &&
      partialStart !== undefined &&
      !/\s/.test(partialStart) &&
      !(this.listSeen && LIST_ITEM_START.test(partialStart))
    ) {
      commit(this.blankEnd);
    }

    const tail = this.buffer;
    const fence = this.fence;
    if (fence?.topLevel && this.stableEnd === fence.openStart) {
      const partial = tail.slice(Math.max(this.scanPos, fence.bodyStart) - this.stableEnd);
      const marker = FENCE_CLOSE.exec(partial)?.[1];
      if (marker?.[0] === fence.char && marker.length >= fence.length) {
        // The text ends on the closing fence without a newline: let markdown close it.
        return { committed, tail, closedFence };
      }
      // A partial line that may become the closing fence is held back rather than shown as code.
      // The code shown is therefore always a prefix of the code to come: it only ever grows.
      const start = partial.trimStart()[0];
      const pending =
        /^ {0,3}(?:`*|~*)$/.test(partial) && (start === undefined || start === fence.char)
          ? partial.length
          : 0;
      const code = tail.slice(fence.bodyStart - this.stableEnd, tail.length - pending);
      return { committed, tail, openFence: { language: fence.info.trim(), code }, closedFence };
    }
    return { committed, tail, closedFence };
  }

  private rewindTo(position: number): void {
    this.stableEnd = position;
    this.scanPos = position;
    this.fence = undefined;
    this.blankEnd = undefined;
    this.listSeen = false;
  }

  private scanLine(
    line: string,
    lineStart: number,
    next: number,
    commit: (end: number, fence?: ClosedFence) => void,
  ): void {
    const fence = this.fence;
    if (fence) {
      const close = FENCE_CLOSE.exec(line);
      const marker = close?.[1];
      if (marker !== undefined && marker[0] === fence.char && marker.length >= fence.length) {
        this.fence = undefined;
        if (fence.topLevel) {
          // A top-level fence starts the unstable part (it was committed up to its opening line).
          const code = this.buffer.slice(fence.bodyStart - this.stableEnd, lineStart - this.stableEnd);
          commit(next, { info: fence.info, code });
        }
      }
      return;
    }
    if (BLANK.test(line)) {
      this.blankEnd = next;
      return;
    }
    const open = FENCE_OPEN.exec(line);
    const marker = open?.[2];
    const info = open?.[3] ?? '';
    if (marker !== undefined && !(marker[0] === '`' && info.includes('`'))) {
      const topLevel = open?.[1] === '';
      if (topLevel) {
        commit(lineStart);
      }
      this.fence = {
        char: marker[0] ?? '`',
        length: marker.length,
        topLevel,
        info,
        openStart: lineStart,
        bodyStart: next,
      };
      this.blankEnd = undefined;
      return;
    }
    const listItem = LIST_ITEM.test(line);
    if (this.blankEnd !== undefined && !/^\s/.test(line) && !(this.listSeen && listItem)) {
      commit(this.blankEnd);
    }
    this.blankEnd = undefined;
    this.listSeen ||= listItem;
  }
}

/** Whether the line at `start` may be a closing fence of `char`: its marker after at most 3 spaces. */
function mayCloseFence(buffer: string, start: number, char: string): boolean {
  let at = start;
  while (at < start + 3 && buffer.charCodeAt(at) === 32) {
    at++;
  }
  return buffer[at] === char;
}
