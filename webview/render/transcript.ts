import type { ThreadEntryMessage, TurnMessage } from '../../src/protocol';
import { MARKDOWN_EVENTS } from '../markdown/workerProtocol';
import type { ChatStore, StoreChanges } from '../store';
import { ChangeCardView } from './checkpoints/changeCard';
import { refreshCheckpoints } from './checkpoints/checkpoint';
import { el, icon } from './dom';
import { EmptyStateSlot, type EmptyStateInfo } from './emptyState';
import { FollowScroll } from './followScroll';
import { eagerStart, LazyTurns } from './lazyTurns';
import { MessageView, ThoughtView } from './message';
import { TerminalCards } from './terminals/terminalCards';
import { ToolCardView } from './toolCard';
import { TurnActions } from './turnActions';
import { TurnSections } from './turnSections';
import { addPart, allEntryIds, cutIds, entryTarget } from './turnParts';
import { turnFooter } from './turnFooter';
import {
  addView,
  appendToTurn,
  createView,
  newestView,
  NO_PARTS,
  NO_VIEWS,
  refreshThoughts,
  showFooter,
  type Group,
} from './turnGroup';
import type { EntryView, RenderContext } from './types';

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
  private readonly follow: FollowScroll;
  private readonly lazy: LazyTurns;
  private readonly actions: TurnActions;
  private readonly views = new Map<string, EntryView>();
  private readonly groups: TurnSections;
  private readonly terminals = new TerminalCards();
  private latestTurn: Group | undefined;
  private readonly empty: EmptyStateSlot;
  private streaming: HTMLElement | undefined;
  private store: ChatStore | undefined;

  constructor(private readonly context: RenderContext) {
    this.content = el('div', 'transcript-content');
    this.log = el('div', 'transcript', this.content);
    this.log.setAttribute('role', 'log');
    this.log.setAttribute('aria-live', 'polite');
    this.log.setAttribute('aria-label', 'Conversation');
    this.log.tabIndex = 0;
    this.follow = new FollowScroll(this.log);
    this.empty = new EmptyStateSlot(
      (message) => this.context.post(message),
      (element) => this.content.prepend(element),
    );
    this.groups = new TurnSections(this.content, (group) => this.lazy.track(group));
    this.lazy = new LazyTurns(this.log, {
      build: (group) => this.buildDeferred(group),
      built: () => {
        if (this.store) {
          this.refreshCheckpoints(this.store);
        }
      },
      evict: (group) => this.evict(group),
      // The latest turn carries the turn's live state (streaming, its footer's actions).
      // Of a long turn's parts, the last: it takes the turn's new entries.
      keep: (group) =>
        group.owner ? group.owner.parts.at(-1) === group && this.isLive(group.owner) : this.isLive(group),
    });
    this.actions = new TurnActions(
      this.log,
      {
        view: (entryId) => this.views.get(entryId),
        group: (turnId) => this.groups.turn(turnId),
        anyRunning: () => this.store?.runningTurn !== undefined,
      },
      context,
    );
    this.element = el('div', 'transcript-wrap', this.log, this.follow.jump);
    this.log.addEventListener('scroll', () => {
      this.lazy.buildNearView();
      this.follow.onScroll();
    });
    // Content grows without scroll events (late fonts, a card opening, streamed text): follow it.
    // Built turns rarely match their placeholder's height, so what is near the view changes too.
    new ResizeObserver(() => {
      this.followBottom();
      this.lazy.buildNearView();
    }).observe(this.content);
    // The markdown worker's answers are applied between frames: followed before the next frame's layout,
    // not after it, the frame lays out and paints once at the bottom (a long stream's main thread ≈ 13 % less).
    window.addEventListener(MARKDOWN_EVENTS.settled, () => this.follow.followSoon());
  }

  /** Follows the stream again from the next frame on, laying nothing out now (the user sent a message). */
  scrollToEndSoon(): void {
    this.follow.scrollToEndSoon();
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
          this.terminals.track(view);
        } else if (entry?.kind === 'tool_call' && entry.permission?.status === 'pending') {
          this.buildPartOf(entry);
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
        if (this.groups.last) {
          appendToTurn(this.groups.last, item);
        } else {
          this.content.append(item);
        }
      }
    }
    this.terminals.update(changes.terminals);
    for (const group of touched) {
      refreshThoughts(group);
    }
    this.empty.update(store.entries.length === 0 && store.turns.length === 0, emptyInfo);
    this.refreshBusy(store);
  }

  /** Shows the message waiting to be sent at the end (or takes it away), following the bottom. */
  showPending(element: HTMLElement, shown: boolean): void {
    if (!shown) {
      element.remove();
    } else if (this.content.lastElementChild !== element) {
      this.content.append(element);
    }
    // A class, not `:has()`: Chromium re-checks a `:has()` subject on every node a stream adds below it.
    this.content.classList.toggle('has-pending', shown);
    this.follow.followBottom();
  }

  /**
   * Keeps the bottom in view while following (the ResizeObserver calls it after layout). An empty chat
   * has no stream to follow: it is read from its first line, also when it grows in a short view.
   */
  followBottom(): void {
    if (!this.empty.isShown || this.content.classList.contains('has-pending')) {
      this.follow.followBottom();
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
    for (const group of this.groups.turns()) {
      group.changes?.unlock();
    }
  }

  private rebuild(store: ChatStore, touched: Set<Group>): void {
    this.views.clear();
    this.groups.clear();
    this.terminals.clear();
    this.lazy.clear();
    this.actions.clear();
    this.store = store;
    this.latestTurn = undefined;
    this.empty.forget();
    this.content.replaceChildren();
    const entries = store.entries;
    // Only the latest entries are built now; the turns before them are built as they near view.
    const eagerFrom = eagerStart(entries);
    for (const [index, entry] of entries.entries()) {
      if (index < eagerFrom) {
        this.lazy.defer(this.groups.of(entry), entry.id);
      } else {
        touched.add(this.addEntry(entry));
      }
    }
    this.lazy.sizePlaceholders();
    for (const [index, turn] of store.turns.entries()) {
      touched.add(this.updateTurn(turn, index === store.turns.length - 1));
    }
    this.refreshCheckpoints(store);
    this.follow.scrollToEnd();
  }

  /**
   * Builds a deferred group's entries (from the store's latest copy), its change card and footer;
   * true when it did (the caller then refreshes the checkpoint rows, which need the user message).
   */
  private buildDeferred(group: Group): boolean {
    const ids = this.lazy.take(group);
    if (!ids) {
      return false;
    }
    const { own, parts } = cutIds(group, ids);
    this.appendViews(group, own);
    // A long turn's parts: its newest built (they take what comes next), the others as they near view.
    for (const [index, partIds] of parts.entries()) {
      if (index === parts.length - 1) {
        this.appendViews(this.newPart(group), partIds);
      } else {
        this.lazy.deferPart(addPart(group), partIds);
      }
    }
    if (group.turn) {
      showFooter(group, turnFooter(group.turn, this.context, group === this.latestTurn));
      this.refreshChanges(group);
    }
    refreshThoughts(group.owner ?? group);
    return true;
  }

  /** A question for the user is never left in a part let go far from view: its part is built again. */
  private buildPartOf(entry: ThreadEntryMessage): void {
    const group = entry.turnId === undefined ? undefined : this.groups.turn(entry.turnId);
    const part = group?.parts.find((candidate) => candidate.deferred?.includes(entry.id));
    if (part) {
      this.buildDeferred(part);
    }
  }

  private appendViews(group: Group, ids: readonly string[]): void {
    for (const id of ids) {
      const entry = this.store?.entry(id);
      if (entry) {
        this.appendView(group, entry);
      }
    }
  }

  private newPart(owner: Group): Group {
    const part = addPart(owner);
    this.lazy.track(part);
    return part;
  }

  /** Whether a group carries the turn's live state (streaming, its footer's actions): never evicted. */
  private isLive(group: Group): boolean {
    return group === this.latestTurn || group.turn?.status === 'running';
  }

  /**
   * Takes a group far from view out of the transcript (LazyTurns makes it a placeholder): its
   * views, terminal subscriptions, change card and checkpoint row go; the restored mark, outside
   * the group, stays. Returns its entry ids to build again from the store.
   */
  private evict(group: Group): string[] {
    // An exact list, not pushed to: it is kept while the turn is away, and a pushed one holds spare room.
    const ids = allEntryIds(group);
    for (const part of [group, ...group.parts]) {
      for (const view of part.views) {
        this.views.delete(view.entryId);
        this.terminals.untrack(view);
      }
      this.actions.forget(part.views.map((view) => view.element));
      part.views = NO_VIEWS;
    }
    // Its parts go with it: it is built again whole, cut into new ones.
    group.parts.forEach((part) => this.lazy.forget(part));
    group.parts = NO_PARTS;
    showFooter(group, []);
    group.element.replaceChildren();
    group.changes = undefined;
    group.userMessage = undefined;
    group.checkpoint = undefined;
    return ids;
  }

  private addEntry(entry: ThreadEntryMessage): Group {
    const group = this.groups.of(entry);
    // An entry added to a turn that is not built yet: build the turn first, to keep the order.
    if (this.buildDeferred(group) && this.store) {
      this.refreshCheckpoints(this.store);
    }
    const target = entryTarget(group) ?? this.newPart(group);
    this.buildDeferred(target);
    this.appendView(target, entry);
    return group;
  }

  private appendView(group: Group, entry: ThreadEntryMessage): void {
    const view = createView(entry, this.context);
    this.views.set(entry.id, view);
    if (entry.kind === 'user' && !group.history && group.userMessage === undefined) {
      group.userMessage = view.element;
    }
    addView(group, view);
    appendToTurn(group, view.element);
    this.terminals.track(view);
  }

  private updateTurn(turn: TurnMessage, latest: boolean): Group {
    const group = this.groups.forTurn(turn.id);
    group.turn = turn;
    // Not through `dataset`: its wrapper would stay with every turn's section.
    group.element.setAttribute('data-status', turn.status);
    if (latest) {
      const previous = this.latestTurn;
      this.latestTurn = group;
      if (previous && previous !== group && previous.turn && !previous.deferred) {
        // No longer the latest: its footer loses the actions that only apply to the latest turn.
        showFooter(previous, turnFooter(previous.turn, this.context, false));
      }
    }
    if (!group.deferred) {
      showFooter(group, turnFooter(turn, this.context, latest));
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
      group.changes = new ChangeCardView(turn.id, this.context.post, () => this.context.paths());
      group.element.insertBefore(group.changes.element, group.footer?.element ?? null);
    }
    // A checkpoint taken late says so on the card too: what changed before it is not listed.
    group.changes?.update(turn.changes, turn.checkpointId !== undefined ? turn.checkpointProblem : undefined);
  }

  private refreshCheckpoints(store: ChatStore): void {
    refreshCheckpoints(store.turns, (turnId) => this.groups.turn(turnId));
    this.actions.refresh();
  }

  /**
   * The message being streamed is aria-busy, so screen readers announce it once complete rather
   * than chunk by chunk; everything else in the log (a permission prompt) is announced at once.
   */
  private refreshBusy(store: ChatStore): void {
    const running = store.runningTurn;
    const group = running ? this.groups.turn(running.id) : undefined;
    const last = group ? newestView(group) : undefined;
    const streaming = last instanceof MessageView || last instanceof ThoughtView ? last.element : undefined;
    if (streaming !== this.streaming) {
      this.streaming?.removeAttribute('aria-busy');
      streaming?.setAttribute('aria-busy', 'true');
      this.streaming = streaming;
    }
  }
}
