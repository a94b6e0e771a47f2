import type { ThreadEntryMessage } from '../../src/protocol';
import type { Group } from './turnGroup';

/**
 * A snapshot with more entries than this builds only its latest turns at once; older ones lazily.
 * 60 entries are about 20 turns, several screens of a narrow view: first paint of a 2,000-turn chat
 * ≈ 95 → 75 ms (medians of 5, same load) against 150 entries, and scrolling up builds the rest.
 */
const EAGER_ENTRIES = 60;
/** How far outside the visible part of the transcript deferred turns are built. */
const LAZY_MARGIN_PX = 1500;
/** How long building deferred turns may take in one frame; the rest waits for the next. */
const BUILD_BUDGET_MS = 6;
/** A deferred entry's height until it is built (keeps the scrollbar roughly right). */
const DEFERRED_ENTRY_PX = 120;
/**
 * How far outside the visible part of the transcript built turns are evicted back to placeholders:
 * two screens or 1,000 px (the larger) past LAZY_MARGIN_PX, so a turn is not built and evicted back and forth.
 * Three screens and 5,000 px kept 62 of the bench's 200 short turns built (41 now): more heap and elements,
 * and scrolling no smoother.
 */
const EVICT_MIN_MARGIN_PX = 2500;
const EVICT_SCREENS = 2;
/**
 * What a turn may hold that eviction must not lose: focus, an answer awaited (a permission prompt,
 * a form field), a notice (not in the store), or a disclosure the user opened or closed.
 */
const KEEP_SELECTOR =
  '.permission-buttons, input, textarea, select, [contenteditable], .notice, .disclosure.user-toggled';

/**
 * The index of the first entry built at once: everything in a short chat, else the latest
 * EAGER_ENTRIES. A turn they start in is built as any turn is (whole, or a long one's own entries and
 * newest part: turnParts.ts) when its first of them is added.
 */
export function eagerStart(entries: readonly ThreadEntryMessage[]): number {
  return Math.max(0, entries.length - EAGER_ENTRIES);
}

/** What the transcript does for the turns LazyTurns builds and evicts. */
export interface LazyTurnsHost {
  /** Builds a deferred group's entries (and clears `deferred`). */
  build(group: Group): void;
  /** Called once after a frame's building, when anything was built. */
  built(): void;
  /**
   * Takes a built group's views out of the transcript and empties its DOM; returns its entry ids,
   * in order, to build again from the store when it comes near.
   */
  evict(group: Group): string[];
  /** Whether the transcript needs a group built whatever its distance (the latest turn). */
  keep(group: Group): boolean;
}

/**
 * The turns of a long chat not built yet, in document order, and building them as they near the
 * visible part of the log. They are found by a binary search over their positions when the log
 * scrolls or resizes, rather than by an IntersectionObserver: observing every one of 2,000
 * placeholders cost the browser more per scrolled frame than building did. Built turns far from
 * the view are evicted back to placeholders of their measured height, so a chat scrolled top to
 * bottom does not keep every turn's DOM (2,000 turns: 25.8 MB of JS heap kept, 9.6 MB evicting).
 */
export class LazyTurns {
  private readonly groups: Group[] = [];
  /** Built groups: the candidates for eviction (few, once far ones are evicted). */
  private readonly live = new Set<Group>();
  /** Deferred turns that came near the view, waiting for a frame with time to build them. */
  private readonly queue = new Set<Group>();
  private scheduled = false;

  constructor(
    private readonly log: HTMLElement,
    private readonly host: LazyTurnsHost,
  ) {}

  clear(): void {
    this.groups.length = 0;
    this.live.clear();
    this.queue.clear();
  }

  /** A group was made, built (until `defer` says otherwise). */
  track(group: Group): void {
    this.live.add(group);
  }

  /** Remembers an entry of `group` to build later. */
  defer(group: Group, entryId: string): void {
    if (!group.deferred) {
      group.deferred = [];
      this.groups.push(group);
      this.live.delete(group);
    }
    group.deferred.push(entryId);
  }

  /** A part of a built turn (turnParts.ts) not built yet: a placeholder among the deferred, in order. */
  deferPart(part: Group, ids: string[]): void {
    part.deferred = ids;
    this.live.delete(part);
    this.insertDeferred(part);
    showPlaceholder(part.element, { minHeight: `${ids.length * DEFERRED_ENTRY_PX}px` });
  }

  /** A part gone with its turn (evicted whole): neither built nor deferred any more. */
  forget(group: Group): void {
    this.live.delete(group);
    this.queue.delete(group);
    const index = this.groups.indexOf(group);
    if (index >= 0) {
      this.groups.splice(index, 1);
    }
  }

  /** Gives every deferred turn a placeholder height (after a snapshot's entries were deferred). */
  sizePlaceholders(): void {
    for (const group of this.groups) {
      showPlaceholder(group.element, { minHeight: `${(group.deferred?.length ?? 0) * DEFERRED_ENTRY_PX}px` });
    }
  }

  /**
   * Takes a group out of the deferred ones and returns its entry ids to build now, or undefined
   * when it was built already.
   */
  take(group: Group): string[] | undefined {
    const ids = group.deferred;
    if (!ids) {
      return undefined;
    }
    group.deferred = undefined;
    this.queue.delete(group);
    const index = this.groups.indexOf(group);
    if (index >= 0) {
      this.groups.splice(index, 1);
    }
    // Off screen, a built turn skips layout at contain-intrinsic-size's estimate; the browser's
    // remembered size went with eviction, so give back the one measured: nothing moves.
    const evicted = group.evictedContentHeight;
    showBuilt(group.element, evicted === undefined ? '' : `auto ${evicted}px`);
    this.live.add(group);
    return ids;
  }

  /**
   * Queues the deferred turns within LAZY_MARGIN_PX of the visible part of the log and builds
   * them. Called from scroll and resize callbacks, where layout is already up to date, so the few
   * positions read (a binary search, then only the turns in range) cost no layout of their own.
   */
  buildNearView(): void {
    const groups = this.groups;
    if (this.log.clientHeight === 0) {
      return;
    }
    const view = this.log.getBoundingClientRect();
    // Positions are read before anything is built or evicted: reads after a change cost a layout.
    const far = this.farFromView(view);
    if (groups.length === 0 && far.length === 0) {
      return;
    }
    const top = view.top - LAZY_MARGIN_PX;
    const bottom = view.bottom + LAZY_MARGIN_PX;
    // The first deferred turn that ends below the top of the range (positions grow with the index).
    let low = 0;
    let high = groups.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((groups[middle] as Group).element.getBoundingClientRect().bottom < top) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    for (let index = low; index < groups.length; index++) {
      const group = groups[index] as Group;
      if (group.element.getBoundingClientRect().top > bottom) {
        break;
      }
      this.queue.add(group);
    }
    for (const [group, height, contentHeight] of far) {
      // A part whose turn was evicted before it in this loop went with it.
      if (this.live.has(group)) {
        this.evict(group, height, contentHeight);
      }
    }
    this.drain();
  }

  /**
   * Built groups beyond the eviction margin that hold nothing to keep, with their heights (border
   * box, content box).
   */
  private farFromView(view: DOMRect): Array<[Group, number, number]> {
    const margin = Math.max(EVICT_MIN_MARGIN_PX, EVICT_SCREENS * view.height + LAZY_MARGIN_PX);
    const far: Array<[Group, number, number]> = [];
    for (const group of this.live) {
      const box = group.element.getBoundingClientRect();
      if (
        (box.bottom < view.top - margin || box.top > view.bottom + margin) &&
        !this.host.keep(group) &&
        !holdsUserState(group.element)
      ) {
        const style = getComputedStyle(group.element);
        const chrome = ['paddingTop', 'paddingBottom', 'borderTopWidth', 'borderBottomWidth'] as const;
        const content = chrome.reduce((height, side) => height - parseFloat(style[side]), box.height);
        far.push([group, box.height, content]);
      }
    }
    return far;
  }

  /**
   * Puts a built group back to a placeholder of exactly its height (nothing around it moves, so
   * the scroll position stays to the pixel), among the deferred ones in document order.
   */
  private evict(group: Group, height: number, contentHeight: number): void {
    const ids = this.host.evict(group);
    group.evictedContentHeight = contentHeight;
    this.live.delete(group);
    group.deferred = ids;
    showPlaceholder(group.element, { height: `${height}px` });
    this.insertDeferred(group);
  }

  /** Puts `group` among the deferred ones, in document order. */
  private insertDeferred(group: Group): void {
    let low = 0;
    let high = this.groups.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.groups[middle] as Group).order < group.order) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    this.groups.splice(low, 0, group);
  }

  /** Builds queued turns, the latest first, for at most BUILD_BUDGET_MS; the rest next frame. */
  private drain(): void {
    const deadline = performance.now() + BUILD_BUDGET_MS;
    let any = false;
    for (const group of [...this.queue].reverse()) {
      if (performance.now() > deadline) {
        if (!this.scheduled) {
          this.scheduled = true;
          requestAnimationFrame(() => {
            this.scheduled = false;
            this.drain();
          });
        }
        break;
      }
      if (group.deferred) {
        this.host.build(group);
        any = true;
      }
      this.queue.delete(group);
    }
    if (any) {
      this.host.built();
    }
  }
}

/** Focus, a selection, or something the user answers or opened inside `element`. */
function holdsUserState(element: HTMLElement): boolean {
  if (element.contains(document.activeElement)) {
    return true;
  }
  const selection = document.getSelection();
  if (selection && selection.rangeCount > 0 && !selection.isCollapsed) {
    if (selection.getRangeAt(0).intersectsNode(element)) {
      return true;
    }
  }
  return element.querySelector(KEEP_SELECTOR) !== null;
}

/*
 * A section's look as a placeholder or built. Its class is set through `className`: the wrapper of
 * `classList` would stay with every turn's section for as long as the chat is open. Its size needs
 * `style` (the page's CSP allows no style attribute), and nothing else styles a turn's section inline.
 */
const PLACEHOLDER_CLASS = ' turn-deferred';

/** Shows `element` as an empty placeholder of `height` or `minHeight`, which screen readers skip. */
function showPlaceholder(element: HTMLElement, size: { height: string } | { minHeight: string }): void {
  if (!element.className.endsWith(PLACEHOLDER_CLASS)) {
    element.className += PLACEHOLDER_CLASS;
  }
  Object.assign(element.style, size);
  // An empty placeholder is not content: screen readers skip it.
  element.setAttribute('aria-hidden', 'true');
}

/** Shows `element` built again, sized (off screen) by `containIntrinsicSize`. */
function showBuilt(element: HTMLElement, containIntrinsicSize: string): void {
  if (element.className.endsWith(PLACEHOLDER_CLASS)) {
    element.className = element.className.slice(0, -PLACEHOLDER_CLASS.length);
  }
  Object.assign(element.style, { height: '', minHeight: '', containIntrinsicSize });
  element.removeAttribute('aria-hidden');
}
