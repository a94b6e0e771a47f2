import type { ItemsChange, TailChange, TailContainer, TailPiece } from './tailPieces';

/**
 * A piece shown: how many of its parent's nodes it made — a number alone for a block (a short message's whole
 * tail: kept in every message shown, so no object), and for a container where its items are, as pieces shown.
 */
type ShownPiece = number | ShownContainer;

interface ShownContainer {
  readonly nodes: number;
  readonly container: Element;
  readonly items: ShownPiece[];
}

const NOTHING_SHOWN: readonly ShownPiece[] = Object.freeze([]);

/**
 * The tail's nodes, the last of a message's markdown element's children, as pieces (tailPieces.ts): a change
 * takes away only the pieces (or items) that changed, from the end, and adds the new ones. Nothing is
 * looked for in the DOM: each piece's nodes are counted as it is added.
 */
export class TailDom {
  private shown = NOTHING_SHOWN;

  constructor(private readonly element: HTMLElement) {}

  /** Takes the tail's nodes away (a fence opened where it was). */
  clear(): void {
    removeLast(this.element, nodeCount(this.shown));
    this.shown = NOTHING_SHOWN;
  }

  /** The tail's first node (its paragraph when the tail is one), or undefined when the tail is empty. */
  first(): ChildNode | undefined {
    const count = nodeCount(this.shown);
    let node = count > 0 ? this.element.lastChild : null;
    for (let left = count - 1; left > 0 && node; left--) {
      node = node.previousSibling;
    }
    return node ?? undefined;
  }

  apply(change: TailChange): void {
    const { keep, grow } = change;
    const after = grow ? keep + 1 : keep;
    removeLast(this.element, nodeCount(this.shown.slice(after)));
    if (grow) {
      changeItems(this.shown[keep], grow);
    }
    // A list as long as its pieces (slice and map make them so; pushed ones keep room for 17).
    this.shown = this.shown.slice(0, after).concat(change.pieces.map((piece) => add(this.element, piece)));
  }

  /**
   * Plain words after the tail's one paragraph (the planner sends them only then): a paragraph shown by its runs
   * counts them in its last run, as the planner does.
   */
  addWords(text: string): void {
    const only = this.shown.length === 1 ? this.shown[0] : undefined;
    if (typeof only === 'object') {
      only.container.append(text);
      // A paragraph's runs are text: numbers of nodes, never containers.
      const last = only.items.at(-1);
      only.items[only.items.length - 1] = (typeof last === 'number' ? last : 0) + 1;
    } else {
      const paragraph = this.first();
      if (paragraph instanceof Element) {
        paragraph.append(text);
      }
    }
  }
}

/** Changes a container shown in place: its items after the ones kept go, the one grown changes, new ones follow. */
function changeItems(shown: ShownPiece | undefined, change: ItemsChange): void {
  if (typeof shown !== 'object') {
    throw new Error("The tail's piece to grow is not shown by its items");
  }
  const { keep, grow } = change;
  const after = grow ? keep + 1 : keep;
  removeLast(shown.container, nodeCount(shown.items.splice(after)));
  if (grow) {
    changeItems(shown.items[keep], grow);
  }
  for (const item of change.items) {
    shown.items.push(add(shown.container, item));
  }
}

/** Adds a piece at the end of `parent`: a block's nodes, or a container's element and then each of its items. */
function add(parent: Element, piece: TailPiece): ShownPiece {
  if (typeof piece === 'string') {
    return insert(parent, piece);
  }
  const before = parent.lastChild;
  const nodes = insert(parent, piece.open + piece.close);
  const first = before ? before.nextSibling : parent.firstChild;
  const container = first instanceof Element ? itemsElement(first, piece) : undefined;
  if (!container) {
    // The renderer's list, quote or paragraph starts with its element, its table with the table's wrapper.
    throw new Error(`A ${piece.container} shown without the element its items go into`);
  }
  return { nodes, container, items: piece.items.map((item) => add(container, item)) };
}

/** The element a container's items go into, from the first element its start and end made. */
function itemsElement(first: Element, piece: TailContainer): Element | undefined {
  if (piece.container === 'table') {
    return first.querySelector(':scope > table > tbody') ?? undefined;
  }
  return (piece.inItem ? first.lastElementChild : first) ?? undefined;
}

function nodeCount(pieces: readonly ShownPiece[]): number {
  return pieces.reduce<number>((sum, piece) => sum + (typeof piece === 'number' ? piece : piece.nodes), 0);
}

/** Adds `html` (the renderer's: raw HTML escaped, links vetted) at the end of `parent`; how many nodes it made. */
function insert(parent: Element, html: string): number {
  const before = parent.lastChild;
  parent.insertAdjacentHTML('beforeend', html);
  let count = 0;
  for (let node = before ? before.nextSibling : parent.firstChild; node; node = node.nextSibling) {
    count++;
  }
  return count;
}

function removeLast(parent: Element, count: number): void {
  for (let left = count; left > 0 && parent.lastChild; left--) {
    parent.lastChild.remove();
  }
}
