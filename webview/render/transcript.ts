import type { ThreadEntryMessage, TurnMessage } from '../../src/protocol';
import type { ChatStore, StoreChanges } from '../store';
import { ChangeCardView } from './checkpoints/changeCard';
import { refreshCheckpoints, type CheckpointSlots } from './checkpoints/checkpoint';
import { el, icon } from './dom';
import { emptyState, type EmptyStateInfo } from './emptyState';
import { MessageView, ThoughtView } from './message';
import { ToolCardView } from './toolCard';
import { turnFooter } from './turnFooter';
import type { EntryView, RenderContext } from './types';

/** Entries of one turn (or of replayed history), the files it changed and the turn's footer. */
interface Group extends CheckpointSlots {
  readonly element: HTMLElement;
  readonly entries: HTMLElement;
  readonly footer: HTMLElement;
  /** Made when the turn first changes a file: most turns never do. */
  changes?: ChangeCardView;
  readonly views: EntryView[];
  turn: TurnMessage | undefined;
  readonly history: boolean;
  /**
   * Entries of a group not built yet (a long chat opened from a snapshot): their views are made,
   * from the store's latest copy, once the group nears the visible part of the transcript.
   */
  deferred: string[] | undefined;
}

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

/** How close to the bottom still counts as "following the stream". */
const STICK_THRESHOLD_PX = 32;

/**
 * The conversation: entry views grouped by turn, updated from the store's change sets so only
 * what changed is touched (a streaming message re-renders its tail, nothing else). Keeps the view
 * at the bottom while the user follows along and offers "Jump to latest" once they scroll up.
 */
export class Transcript {
  readonly element: HTMLElement;
  private readonly log: HTMLElement;
  /** Everything in the log; its size changes whenever anything in the transcript does. */
  private readonly content: HTMLElement;
  private readonly jump: HTMLButtonElement;
  private readonly views = new Map<string, EntryView>();
  private readonly groups = new Map<string, Group>();
  private readonly terminalCards = new Map<string, Set<ToolCardView>>();
  private lastGroup: Group | undefined;
  private latestTurn: Group | undefined;
  private empty: { element: HTMLElement; key: string } | undefined;
  private stick = true;
  private lastScrollTop = 0;
  /** Where followBottom last put the view. */
  private followedTo = -1;
  private streaming: HTMLElement | undefined;
  private store: ChatStore | undefined;
  /**
   * Turns not built yet, in document order. Found near the view by a binary search over their
   * positions when the log scrolls or resizes, rather than by an IntersectionObserver: observing
   * every one of 2,000 placeholders cost the browser more per scrolled frame than building did.
   */
  private readonly deferredGroups: Group[] = [];
  /** Deferred turns that came near the view, waiting for a frame with time to build them. */
  private readonly buildQueue = new Set<Group>();
  private buildScheduled = false;

  constructor(private readonly context: RenderContext) {
    this.content = el('div', 'transcript-content');
    this.log = el('div', 'transcript', this.content);
    this.log.setAttribute('role', 'log');
    this.log.setAttribute('aria-live', 'polite');
    this.log.setAttribute('aria-label', 'Conversation');
    this.log.tabIndex = 0;
    this.jump = el('button', 'jump-latest', icon('arrow-down'), el('span', '', 'Jump to latest'));
    this.jump.type = 'button';
    this.jump.hidden = true;
    this.jump.addEventListener('click', () => this.scrollToEnd());
    this.element = el('div', 'transcript-wrap', this.log, this.jump);
    this.log.addEventListener('scroll', () => this.onScroll());
    // Content grows without scroll events (late fonts, a card opening, streamed text): follow it.
    // Built turns rarely match their placeholder's height, so what is near the view changes too.
    new ResizeObserver(() => {
      this.followBottom();
      this.buildNearView();
    }).observe(this.content);
  }

  /**
   * At the bottom: follow. Moved up: the user is reading, stop following. Anything else (the
   * browser adjusting the position while content changes) keeps the current mode.
   */
  private onScroll(): void {
    this.buildNearView();
    const top = this.log.scrollTop;
    if (this.stick && top === this.followedTo) {
      // Our own scroll to the bottom: nothing to decide, and reading scrollHeight would cost a
      // layout of the whole transcript on every frame of a stream.
      return;
    }
    const distance = this.log.scrollHeight - top - this.log.clientHeight;
    if (distance <= STICK_THRESHOLD_PX) {
      this.stick = true;
    } else if (top < this.lastScrollTop) {
      this.stick = false;
    }
    this.lastScrollTop = top;
    this.jump.hidden = this.stick;
  }

  /** Follows the stream again (the user sent a message or asked to jump). */
  scrollToEnd(): void {
    this.stick = true;
    this.jump.hidden = true;
    this.followBottom();
  }

  /** Applies one render's worth of changes. */
  apply(changes: StoreChanges, store: ChatStore, emptyInfo: EmptyStateInfo): void {
    const touched = new Set<Group>();
    if (changes.reset) {
      this.rebuild(store, touched);
    } else {
      for (const id of changes.added) {
        const entry = store.entry(id);
        if (entry) {
          touched.add(this.addEntry(entry));
        }
      }
      for (const id of changes.changed) {
        const entry = store.entry(id);
        const view = this.views.get(id);
        if (entry && view) {
          view.update(entry);
          this.trackTerminals(view);
        }
      }
      for (const [id, deltas] of changes.appended) {
        const entry = store.entry(id);
        const view = this.views.get(id);
        if (
          entry &&
          entry.kind !== 'tool_call' &&
          (view instanceof MessageView || view instanceof ThoughtView)
        ) {
          view.appendText(entry, deltas.join(''));
        } else if (entry && view) {
          view.update(entry);
        }
      }
      for (const id of changes.turns) {
        const turn = store.turn(id);
        if (turn) {
          touched.add(this.updateTurn(turn, store.turns.at(-1)?.id === id));
        }
      }
      if (changes.turns.size > 0 || changes.added.some((id) => store.entry(id)?.kind === 'user')) {
        this.refreshCheckpoints(store);
      }
      for (const notice of changes.notices) {
        const item = el(
          'div',
          `notice notice-${notice.severity}`,
          icon(notice.severity === 'info' ? 'info' : notice.severity),
          el('span', 'notice-title', notice.title),
          notice.description ? el('span', 'notice-description', notice.description) : null,
        );
        (this.lastGroup?.entries ?? this.content).append(item);
      }
    }
    for (const terminalId of changes.terminals) {
      for (const card of this.terminalCards.get(terminalId) ?? []) {
        card.updateTerminal(terminalId);
      }
    }
    for (const group of touched) {
      this.refreshThoughts(group);
    }
    this.refreshEmpty(store.entries.length === 0 && store.turns.length === 0, emptyInfo);
    this.refreshBusy(store);
  }

  /** Keeps the bottom in view while following (the ResizeObserver calls it after layout). */
  followBottom(): void {
    if (this.stick) {
      this.log.scrollTop = this.log.scrollHeight;
      this.lastScrollTop = this.log.scrollTop;
      this.followedTo = this.lastScrollTop;
    }
  }

  /** The host rejected a permission answer: let the user answer again. */
  unlockPermissions(): void {
    for (const view of this.views.values()) {
      if (view instanceof ToolCardView) {
        view.unlockPermission();
      }
    }
  }

  /** The host could not act on a change card's Keep or Undo: let the user ask again. */
  unlockChanges(): void {
    for (const group of this.groups.values()) {
      group.changes?.unlock();
    }
  }

  private rebuild(store: ChatStore, touched: Set<Group>): void {
    this.views.clear();
    this.groups.clear();
    this.terminalCards.clear();
    this.deferredGroups.length = 0;
    this.buildQueue.clear();
    this.store = store;
    this.lastGroup = undefined;
    this.latestTurn = undefined;
    this.empty = undefined;
    this.content.replaceChildren();
    const entries = store.entries;
    // Only the latest entries are built now; the turns before them are built as they near view.
    const eagerFrom = this.eagerStart(entries);
    for (const [index, entry] of entries.entries()) {
      if (index < eagerFrom) {
        this.deferEntry(entry);
      } else {
        touched.add(this.addEntry(entry));
      }
    }
    for (const group of this.deferredGroups) {
      group.element.classList.add('turn-deferred');
      group.element.style.minHeight = `${(group.deferred?.length ?? 0) * DEFERRED_ENTRY_PX}px`;
    }
    for (const [index, turn] of store.turns.entries()) {
      touched.add(this.updateTurn(turn, index === store.turns.length - 1));
    }
    this.refreshCheckpoints(store);
    this.stick = true;
    this.jump.hidden = true;
  }

  /**
   * The index of the first entry built at once: everything in a short chat, else the entries of
   * the latest turns from about EAGER_ENTRIES back (whole turns, so a turn is never half built).
   */
  private eagerStart(entries: readonly ThreadEntryMessage[]): number {
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

  private deferEntry(entry: ThreadEntryMessage): void {
    const group = this.groupFor(entry.turnId);
    if (!group.deferred) {
      group.deferred = [];
      this.deferredGroups.push(group);
    }
    group.deferred.push(entry.id);
  }

  /**
   * Queues the deferred turns within LAZY_MARGIN_PX of the visible part of the log and builds
   * them. Called from scroll and resize callbacks, where layout is already up to date, so the few
   * positions read (a binary search, then only the turns in range) cost no layout of their own.
   */
  private buildNearView(): void {
    const groups = this.deferredGroups;
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
      this.buildQueue.add(group);
    }
    this.drainBuildQueue();
  }

  /** Builds queued turns, the latest first, for at most BUILD_BUDGET_MS; the rest next frame. */
  private drainBuildQueue(): void {
    const deadline = performance.now() + BUILD_BUDGET_MS;
    let built = false;
    for (const group of [...this.buildQueue].reverse()) {
      if (performance.now() > deadline) {
        if (!this.buildScheduled) {
          this.buildScheduled = true;
          requestAnimationFrame(() => {
            this.buildScheduled = false;
            this.drainBuildQueue();
          });
        }
        break;
      }
      built = this.buildDeferred(group) || built;
    }
    if (built && this.store) {
      this.refreshCheckpoints(this.store);
    }
  }

  /**
   * Builds a deferred group's entries (from the store's latest copy), its change card and footer;
   * true when it did (the caller then refreshes the checkpoint rows, which need the user message).
   */
  private buildDeferred(group: Group): boolean {
    const ids = group.deferred;
    if (!ids) {
      return false;
    }
    group.deferred = undefined;
    this.buildQueue.delete(group);
    const index = this.deferredGroups.indexOf(group);
    if (index >= 0) {
      this.deferredGroups.splice(index, 1);
    }
    group.element.classList.remove('turn-deferred');
    group.element.style.minHeight = '';
    for (const id of ids) {
      const entry = this.store?.entry(id);
      if (entry) {
        const view = this.createView(entry);
        this.views.set(entry.id, view);
        if (entry.kind === 'user' && !group.history && group.userMessage === undefined) {
          group.userMessage = view.element;
        }
        group.views.push(view);
        group.entries.append(view.element);
        this.trackTerminals(view);
      }
    }
    if (group.turn) {
      group.footer.replaceChildren(...turnFooter(group.turn, this.context, group === this.latestTurn));
      this.refreshChanges(group);
    }
    this.refreshThoughts(group);
    return true;
  }

  private addEntry(entry: ThreadEntryMessage): Group {
    const group = this.groupFor(entry.turnId);
    // An entry added to a turn that is not built yet: build the turn first, to keep the order.
    if (this.buildDeferred(group) && this.store) {
      this.refreshCheckpoints(this.store);
    }
    const view = this.createView(entry);
    this.views.set(entry.id, view);
    if (entry.kind === 'user' && !group.history && group.userMessage === undefined) {
      group.userMessage = view.element;
    }
    group.views.push(view);
    group.entries.append(view.element);
    this.trackTerminals(view);
    return group;
  }

  private createView(entry: ThreadEntryMessage): EntryView {
    switch (entry.kind) {
      case 'user':
      case 'agent':
        return new MessageView(entry, this.context);
      case 'thought':
        return new ThoughtView(entry, this.context);
      case 'tool_call':
        return new ToolCardView(entry, this.context);
      default: {
        const never: never = entry;
        throw new Error(`Unknown entry ${JSON.stringify(never)}`);
      }
    }
  }

  private updateTurn(turn: TurnMessage, latest: boolean): Group {
    const group = this.groupFor(turn.id);
    group.turn = turn;
    group.element.dataset.status = turn.status;
    if (latest) {
      const previous = this.latestTurn;
      this.latestTurn = group;
      if (previous && previous !== group && previous.turn && !previous.deferred) {
        // No longer the latest: its footer loses the actions that only apply to the latest turn.
        previous.footer.replaceChildren(...turnFooter(previous.turn, this.context, false));
      }
    }
    if (!group.deferred) {
      group.footer.replaceChildren(...turnFooter(turn, this.context, latest));
      this.refreshChanges(group);
    }
    return group;
  }

  /** The change card at the end of a built turn: made when the turn first changes a file. */
  private refreshChanges(group: Group): void {
    const turn = group.turn;
    if (!turn) {
      return;
    }
    if (!group.changes && turn.changes && turn.changes.files.length > 0) {
      group.changes = new ChangeCardView(turn.id, this.context.post);
      group.footer.before(group.changes.element);
    }
    group.changes?.update(turn.changes);
  }

  private groupFor(turnId: string | undefined): Group {
    if (turnId === undefined && this.lastGroup?.history) {
      return this.lastGroup;
    }
    const existing = turnId === undefined ? undefined : this.groups.get(turnId);
    if (existing) {
      return existing;
    }
    const entries = el('div', 'turn-entries');
    const footer = el('div', 'turn-footer');
    const element = el('section', turnId === undefined ? 'turn turn-history' : 'turn', entries, footer);
    const group: Group = {
      element,
      entries,
      footer,
      views: [],
      turn: undefined,
      history: turnId === undefined,
      deferred: undefined,
    };
    if (turnId !== undefined) {
      element.dataset.turnId = turnId;
      this.groups.set(turnId, group);
    }
    this.content.append(element);
    this.lastGroup = group;
    return group;
  }

  private refreshCheckpoints(store: ChatStore): void {
    refreshCheckpoints(store.turns, (turnId) => this.groups.get(turnId), {
      anyRunning: store.runningTurn !== undefined,
      post: this.context.post,
    });
  }

  /** Thinking stays open only while it is the newest entry of a running turn. */
  private refreshThoughts(group: Group): void {
    const running = group.turn?.status === 'running';
    const last = group.views.at(-1);
    for (const view of group.views) {
      if (view instanceof ThoughtView) {
        view.setActive(running && view === last);
      }
    }
  }

  /**
   * The message being streamed is aria-busy, so screen readers announce it once complete rather
   * than chunk by chunk; everything else in the log (a permission prompt) is announced at once.
   */
  private refreshBusy(store: ChatStore): void {
    const running = store.runningTurn;
    const last = running ? this.groups.get(running.id)?.views.at(-1) : undefined;
    const streaming = last instanceof MessageView || last instanceof ThoughtView ? last.element : undefined;
    if (streaming !== this.streaming) {
      this.streaming?.removeAttribute('aria-busy');
      streaming?.setAttribute('aria-busy', 'true');
      this.streaming = streaming;
    }
  }

  private trackTerminals(view: EntryView): void {
    if (!(view instanceof ToolCardView)) {
      return;
    }
    for (const terminalId of view.terminalIds) {
      let cards = this.terminalCards.get(terminalId);
      if (!cards) {
        cards = new Set();
        this.terminalCards.set(terminalId, cards);
      }
      cards.add(view);
    }
  }

  private refreshEmpty(isEmpty: boolean, info: EmptyStateInfo): void {
    if (!isEmpty) {
      this.empty?.element.remove();
      this.empty = undefined;
      return;
    }
    // Chat times move on their own; the list's order and titles decide a rebuild.
    const key = JSON.stringify({
      ...info,
      recentChats: info.recentChats.map((chat) => [chat.chatId, chat.title]),
    });
    if (this.empty?.key === key) {
      return;
    }
    const element = emptyState(info, (message) => this.context.post(message));
    if (this.empty) {
      this.empty.element.replaceWith(element);
    } else {
      this.content.prepend(element);
    }
    this.empty = { element, key };
  }
}
