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
 * The index of the first entry built at once: everything in a short chat, else the entries of
 * the latest turns from about EAGER_ENTRIES back (whole turns, so a turn is never half built).
 */
export function eagerStart(entries: readonly ThreadEntryMessage[]): number {
  if (entries.length <= EAGER_ENTRIES) {
    return 0;
  }
  let start = entries.length - EAGER_ENTRIES;
  const turnId = entries[start]?.turnId;
  while (start > 0 && turnId !== undefined && entries[start - 1]?.turnId === turnId) {
    start--;
  }
  return start;
}

/**
 * The turns of a long chat not built yet, in document order, and building them as they near the
 * visible part of the log. They are found by a binary search over their positions when the log
 * scrolls or resizes, rather than by an IntersectionObserver: observing every one of 2,000
 * placeholders cost the browser more per scrolled frame than building did.
 */
export class LazyTurns {
  private readonly groups: Group[] = [];
  /** Deferred turns that came near the view, waiting for a frame with time to build them. */
  private readonly queue = new Set<Group>();
  private scheduled = false;

  /**
   * @param build builds a deferred group's entries (and clears `deferred`)
   * @param built called once after a frame's building, when anything was built
   */
  constructor(
    private readonly log: HTMLElement,
    private readonly build: (group: Group) => void,
    private readonly built: () => void,
  ) {}

  clear(): void {
    this.groups.length = 0;
    this.queue.clear();
  }

  /** Remembers an entry of `group` to build later. */
  defer(group: Group, entryId: string): void {
    if (!group.deferred) {
      group.deferred = [];
      this.groups.push(group);
    }
    group.deferred.push(entryId);
  }

  /** Gives every deferred turn a placeholder height (after a snapshot's entries were deferred). */
  sizePlaceholders(): void {
    for (const group of this.groups) {
      group.element.classList.add('turn-deferred');
      group.element.style.minHeight = `${(group.deferred?.length ?? 0) * DEFERRED_ENTRY_PX}px`;
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
    group.element.classList.remove('turn-deferred');
    group.element.style.minHeight = '';
    return ids;
  }

  /**
   * Queues the deferred turns within LAZY_MARGIN_PX of the visible part of the log and builds
   * them. Called from scroll and resize callbacks, where layout is already up to date, so the few
   * positions read (a binary search, then only the turns in range) cost no layout of their own.
   */
  buildNearView(): void {
    const groups = this.groups;
    if (groups.length === 0 || this.log.clientHeight === 0) {
      return;
    }
    const view = this.log.getBoundingClientRect();
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
    this.drain();
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
        this.build(group);
        any = true;
      }
      this.queue.delete(group);
    }
    if (any) {
      this.built();
    }
  }
}
