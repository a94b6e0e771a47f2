import type { Token } from 'markdown-it';

/**
 * A streaming tail's HTML cut at its top-level blocks, so the page changes only the blocks that changed.
 * A tail has no blank line to be split at (markdown/blockSplitter.ts), so a long tight list or table is all
 * tail until it ends: rendered anew as a whole each frame, a 300 KB list cost the page 9 s of its main thread
 * and frames of 0.7 s. A list's items, a table's body rows, a quote's blocks and a paragraph's lines (or runs of
 * a long line) are pieces of their own too: while the list grows, the items shown stay in the DOM and only the
 * new ones (and the last, still growing) are added. The last item may itself grow so (a list nested in a list's
 * last item, a quote's last paragraph or list): a long list under one bullet costs its new items too.
 *
 * The pieces joined are exactly markdown-it's HTML for the whole tail (markdown-it's renderer decides a
 * token's line breaks from its neighbours inside the block, never across a top-level block or an item:
 * tested in test/webview/tailPieces.test.ts).
 */
export type TailPiece = string | TailContainer;

/**
 * A list, a table with body rows, a quote, or a paragraph of several lines or a long line: its items (rows, the
 * quote's blocks, the paragraph's runs) between its start and its end. Shown, the start and end together make the
 * element the items go into: the list itself, the table's body, the quote, the paragraph. Its last item may be a
 * container of its own (a list's last item ending in a nested list, a quote's last block), growing as the tail does.
 */
export interface TailContainer {
  readonly container: 'list' | 'table' | 'paragraph' | 'quote';
  readonly open: string;
  readonly items: readonly TailPiece[];
  readonly close: string;
  /**
   * A list in a list's item: its `open` starts with the item's. Its element is the item's last element (the item
   * ends with it); otherwise the container's element is the first that `open` makes.
   */
  readonly inItem?: true;
}

/** How a container's items change: the first `keep` stay; the one after them (if `grow`) stays and changes so. */
export interface ItemsChange {
  readonly keep: number;
  readonly grow?: ItemsChange;
  /** Shown after the items kept (and the one grown), in place of what was shown there. */
  readonly items: readonly TailPiece[];
}

/** How to show `pieces` where the pieces shown were: see TailChange's fields. */
export interface TailChange {
  /** The pieces shown first that stay as they are. */
  readonly keep: number;
  /** The piece shown after those is a container that stays, its items changed so. */
  readonly grow?: ItemsChange;
  /** Shown after the pieces kept (and the one grown), in place of what was shown there. */
  readonly pieces: readonly TailPiece[];
}

/** Renders a run of tokens from one parse (with its `env`): markdown-it's renderer, as renderer.ts sets it up. */
export type RenderTokens = (tokens: Token[]) => string;

/** The tail's pieces from its tokens: one per top-level block, lists and tables by item. */
export function tailPieces(tokens: Token[], render: RenderTokens): TailPiece[] {
  const pieces: TailPiece[] = [];
  for (let start = 0; start < tokens.length;) {
    const end = blockEnd(tokens, start);
    pieces.push(piece(tokens.slice(start, end), render));
    start = end;
  }
  // Kept by the planner while the message is shown: a copy holds as many slots as pieces (a pushed list has 17).
  return pieces.slice();
}

/** Where the block starting at `start` ends (the index after its closing token). */
function blockEnd(tokens: readonly Token[], start: number): number {
  const first = tokens[start] as Token;
  if (first.nesting !== 1) {
    return start + 1;
  }
  let end = start + 1;
  while (
    end < tokens.length &&
    !((tokens[end] as Token).nesting === -1 && (tokens[end] as Token).level === first.level)
  ) {
    end++;
  }
  return end + 1;
}

function piece(block: Token[], render: RenderTokens): TailPiece {
  const first = block[0] as Token;
  if (first.type === 'bullet_list_open' || first.type === 'ordered_list_open') {
    return container('list', block, 1, block.length - 1, render);
  }
  if (first.type === 'blockquote_open') {
    return container('quote', block, 1, block.length - 1, render);
  }
  if (first.type === 'table_open') {
    const body = block.findIndex((token) => token.type === 'tbody_open');
    if (body >= 0) {
      return container('table', block, body + 1, block.length - 2, render);
    }
  }
  if (first.type === 'paragraph_open' && block.length === 3) {
    return paragraphRuns(block, render) ?? render(block);
  }
  return render(block);
}

/**
 * A container's last item, which may still grow: a quote's last block as a piece of its own; a list item that
 * ends with a nested list as that list, its `open` starting with the item's (one slice: markdown-it writes a line
 * break before a block that follows a tight item's hidden paragraph, seen only with both in the slice).
 */
function lastItem(kind: TailContainer['container'], item: Token[], render: RenderTokens): TailPiece {
  if (kind === 'quote') {
    return piece(item, render);
  }
  if (kind !== 'list' || item.length < 3) {
    return render(item);
  }
  let last = 1;
  for (let start = 1; start < item.length - 1; start = blockEnd(item, start)) {
    last = start;
  }
  const type = (item[last] as Token).type;
  if (type !== 'bullet_list_open' && type !== 'ordered_list_open') {
    return render(item);
  }
  const nested = container('list', item, last + 1, item.length - 2, render);
  return typeof nested === 'string' ? nested : { ...nested, inItem: true };
}

/**
 * How many of a paragraph's inline tokens (words, code spans, emphasis…) make one of its runs at most, when no
 * line break cuts it sooner: a long paragraph without line breaks (a log or data shown as one line) then grows
 * by runs too. Each run is a few hundred characters of prose.
 */
const RUN_TOKENS = 64;

/**
 * A paragraph's runs: its lines, each up to and with its line break, and long lines cut every RUN_TOKENS tokens
 * — only where no emphasis or link is open across the cut; undefined for one run.
 */
function paragraphRuns(block: Token[], render: RenderTokens): TailPiece | undefined {
  const [start, inline, end] = block as [Token, Token, Token];
  const children = inline.children ?? [];
  const items: string[] = [];
  let depth = 0;
  let from = 0;
  for (const [index, child] of children.entries()) {
    depth += child.nesting;
    const lineEnd = child.type === 'softbreak' || child.type === 'hardbreak';
    if (depth === 0 && (lineEnd || index + 1 - from >= RUN_TOKENS)) {
      items.push(render(children.slice(from, index + 1)));
      from = index + 1;
    }
  }
  if (items.length === 0 || (items.length === 1 && from === children.length)) {
    return undefined;
  }
  if (from < children.length) {
    items.push(render(children.slice(from)));
  }
  // The paragraph's own tags, as rendered around its text: with an empty inline token between them.
  const empty = Object.assign(Object.create(Object.getPrototypeOf(inline) as object) as Token, inline, {
    children: [],
  });
  const tags = render([start, empty, end]);
  const at = tags.lastIndexOf('</');
  return { container: 'paragraph', open: tags.slice(0, at), items, close: tags.slice(at) };
}

/**
 * A list, table or quote whose items are the blocks between `from` and `to` (indexes in `block`); an empty quote
 * is one block (markdown-it writes its start and end on one line then).
 */
function container(
  kind: 'list' | 'table' | 'quote',
  block: Token[],
  from: number,
  to: number,
  render: RenderTokens,
): TailPiece {
  if (from >= to) {
    return render(block);
  }
  const items: TailPiece[] = [];
  for (let start = from; start < to;) {
    const end = blockEnd(block, start);
    const item = block.slice(start, end);
    items.push(end < to ? render(item) : lastItem(kind, item, render));
    start = end;
  }
  return { container: kind, open: render(block.slice(0, from)), items, close: render(block.slice(to)) };
}

/**
 * The pieces shown once plain words (`html`: as the renderer writes them) were added after the tail's one
 * paragraph (markdown/proseTail.ts): a paragraph shown by its runs has them at the end of its last run; for
 * anything else, undefined (not known: shown anew by the next change).
 */
export function withWordsAdded(
  shown: readonly TailPiece[] | undefined,
  html: string,
): readonly TailPiece[] | undefined {
  const only = shown?.length === 1 ? shown[0] : undefined;
  if (typeof only !== 'object' || only.container !== 'paragraph') {
    return undefined;
  }
  const items = only.items.slice();
  items[items.length - 1] = (items.at(-1) ?? '') + html;
  return [{ ...only, items }];
}

/** What changes from the pieces `shown` (undefined: not known, all of it goes) to `next`; undefined: nothing. */
export function tailChange(
  shown: readonly TailPiece[] | undefined,
  next: readonly TailPiece[],
): TailChange | undefined {
  if (!shown) {
    return { keep: 0, pieces: next };
  }
  const change = itemsChange(shown, next);
  if (change.keep === shown.length && change.keep === next.length) {
    return undefined;
  }
  const { keep, grow, items } = change;
  return grow ? { keep, grow, pieces: items } : { keep, pieces: items };
}

/** How the pieces or items `was` become `is`: the same first ones kept, the next one grown when it can be. */
function itemsChange(was: readonly TailPiece[], is: readonly TailPiece[]): ItemsChange {
  let keep = 0;
  while (keep < was.length && keep < is.length && samePiece(was[keep] as TailPiece, is[keep] as TailPiece)) {
    keep++;
  }
  const from = was[keep];
  const to = is[keep];
  if (typeof from === 'object' && typeof to === 'object' && sameContainer(from, to)) {
    return { keep, grow: itemsChange(from.items, to.items), items: is.slice(keep + 1) };
  }
  return { keep, items: is.slice(keep) };
}

/** Whether `a` and `b` are the same element: its items, then, can change in place. */
function sameContainer(a: TailContainer, b: TailContainer): boolean {
  return a.container === b.container && a.open === b.open && a.close === b.close && a.inItem === b.inItem;
}

function samePiece(a: TailPiece, b: TailPiece): boolean {
  if (typeof a === 'string' || typeof b === 'string') {
    return a === b;
  }
  return (
    sameContainer(a, b) &&
    a.items.length === b.items.length &&
    a.items.every((item, i) => samePiece(item, b.items[i] as TailPiece))
  );
}
