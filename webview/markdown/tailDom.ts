import type { TailChange, TailPiece } from './tailPieces';

/** A piece shown: how many of the message's nodes it made, and for a list, table or paragraph, where its items are. */
interface ShownPiece {
  readonly nodes: number;
  readonly items?: { readonly container: Element; readonly nodes: number[] };
}

/**
 * The tail's nodes, the last of a message's markdown element's children, as pieces (tailPieces.ts): a change
 * takes away only the pieces (or items) that changed, from the end, and adds the new ones. Nothing is
 * looked for in the DOM: each piece's nodes are counted as it is added.
 */
export class TailDom {
  private shown: ShownPiece[] = [];

  constructor(private readonly element: HTMLElement) {}

  /** Takes the tail's nodes away (a fence opened where it was). */
  clear(): void {
    removeLast(this.element, this.nodeCount());
    this.shown = [];
  }

  /** The tail's first node (its paragraph when the tail is one), or undefined when the tail is empty. */
  first(): ChildNode | undefined {
    const count = this.nodeCount();
    let node = count > 0 ? this.element.lastChild : null;
    for (let left = count - 1; left > 0 && node; left--) {
      node = node.previousSibling;
    }
    return node ?? undefined;
  }

  private nodeCount(): number {
    return this.shown.reduce((sum, piece) => sum + piece.nodes, 0);
  }

  apply(change: TailChange): void {
    const { keep, grow } = change;
    const after = grow ? keep + 1 : keep;
    removeLast(
      this.element,
      this.shown.splice(after).reduce((sum, piece) => sum + piece.nodes, 0),
    );
    if (grow) {
      const grown = this.shown[keep]?.items;
      if (!grown) {
        throw new Error(`The tail's piece ${keep} is not shown by its items`);
      }
      removeLast(
        grown.container,
        grown.nodes.splice(grow.keep).reduce((sum, nodes) => sum + nodes, 0),
      );
      for (const item of grow.items) {
        grown.nodes.push(insert(grown.container, item));
      }
    }
    for (const piece of change.pieces) {
      this.shown.push(this.add(piece));
    }
  }

  private add(piece: TailPiece): ShownPiece {
    if ('html' in piece) {
      return { nodes: insert(this.element, piece.html) };
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
    return { nodes, items: { container, nodes: piece.items.map((item) => insert(container, item)) } };
  }
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
