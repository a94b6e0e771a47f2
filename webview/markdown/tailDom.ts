import type { TailChange, TailPiece } from './tailPieces';

/**
 * A piece shown: how many of the message's nodes it made — a number alone for a block (a short message's whole
 * tail: kept in every message shown, so no object), and for a list, table or paragraph where its items are.
 */
type ShownPiece = number | { readonly nodes: number; readonly container: Element; readonly items: number[] };

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
      const grown = this.shown[keep];
      if (typeof grown !== 'object') {
        throw new Error(`The tail's piece ${keep} is not shown by its items`);
      }
      removeLast(
        grown.container,
        grown.items.splice(grow.keep).reduce((sum, nodes) => sum + nodes, 0),
      );
      for (const item of grow.items) {
        grown.items.push(insert(grown.container, item));
      }
    }
    // A list as long as its pieces (slice and map make them so; pushed ones keep room for 17).
    this.shown = this.shown.slice(0, after).concat(change.pieces.map((piece) => this.add(piece)));
  }

  /**
   * Plain words after the tail's one paragraph (the planner sends them only then): a paragraph shown by its runs
   * counts them in its last run, as the planner does.
   */
  addWords(text: string): void {
    const only = this.shown.length === 1 ? this.shown[0] : undefined;
    if (typeof only === 'object') {
      only.container.append(text);
      only.items[only.items.length - 1] = (only.items.at(-1) ?? 0) + 1;
    } else {
      const paragraph = this.first();
      if (paragraph instanceof Element) {
        paragraph.append(text);
      }
    }
  }

  private add(piece: TailPiece): ShownPiece {
    if (typeof piece === 'string') {
      return insert(this.element, piece);
    }
    const before = this.element.lastChild;
    const nodes = insert(this.element, piece.open + piece.close);
    const first = before ? before.nextSibling : this.element.firstChild;
    const container =
      piece.container !== 'table' || !(first instanceof Element)
        ? first
        : first.querySelector(':scope > table > tbody');
    if (!(container instanceof Element)) {
      // The renderer's list or paragraph starts with its element, its table with the table's wrapper.
      throw new Error(`A ${piece.container} shown without the element its items go into`);
    }
    return { nodes, container, items: piece.items.map((item) => insert(container, item)) };
  }
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
