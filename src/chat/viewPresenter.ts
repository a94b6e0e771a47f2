import { DisposableStore, type Disposable } from '../core/util/disposable';
import type { ThreadEvent } from '../core/thread/threadTypes';
import type { AgentStatus, ChatActivityState, ChatSummary, HostMessage, ViewState } from '../protocol';
import type { AgentDefinition } from './agentSettings';
import type { ChatCollection } from './chatCollection';
import type { Conversation } from './conversation';
import { EventBatcher } from './eventBatcher';
import { ViewConnections } from './viewConnections';
import type { ViewSlot } from './viewSlot';
import type { ViewSink } from './viewSink';

/** What the presenter reads to build what the views show. */
export interface PresenterModel {
  readonly chats: ChatCollection;
  /** The agents offered (for the picker). */
  agents(): readonly AgentDefinition[];
  /** The definition of a chat's agent (the default one when it is no longer configured). */
  definitionOf(agentId: string | undefined): AgentDefinition;
  status(agentId: string): AgentStatus;
  /** Whether the chat's session can be deleted on the agent's side too. */
  deletableOnAgent?(chatId: string): boolean;
  readonly workspaceFolders?: () => readonly string[];
  /** The features' parts of a view's full state, for the view's chat. */
  featureState(chat: Conversation | undefined): Partial<ViewState>;
  /** Full states went out: the features send again what they stream outside the state. */
  snapshotSent(): void;
  /** What the chat is doing (./chatActivity), for its line in the list. */
  activityOf?(chat: Conversation): { readonly state?: ChatActivityState; readonly waitingFor?: string };
}

/**
 * The views' side of the chat: builds each view's state (the features adding their parts), batches each
 * chat's thread events and posts every message to the views it concerns — a chat's events, status and
 * resume problem to the views showing that chat; the chat list to each view with its own active chat;
 * window-wide messages to every view.
 */
export class ViewPresenter implements Disposable {
  private readonly views = new ViewConnections();
  /** Per chat shown: its events waiting for the next flush (one batcher, however many views show it). */
  private readonly batchers = new Map<string, EventBatcher>();
  private readonly store = new DisposableStore();
  /** The slots a snapshot is being sent to: queued events flushed meanwhile skip them (the snapshot holds them). */
  private snapshotting: ReadonlySet<ViewSlot> = new Set();

  constructor(private readonly model: PresenterModel) {
    this.store.add({ dispose: () => this.dropBatchers(() => true) });
  }

  /** A view (re)connected, showing `slot`; it gets nothing before it says `ready`. */
  attach(sink: ViewSink, slot: ViewSlot): Disposable {
    return this.views.attach(sink, slot, () => this.dropBatchers((chatId) => !this.views.shows(chatId)));
  }

  /** Notes a `ready` from `from` (without `from`: from every view) before the message is dispatched. */
  noteReady(raw: unknown, from?: ViewSink): void {
    this.views.noteReady(raw, from);
  }

  slotOf(sink: ViewSink): ViewSlot | undefined {
    return this.views.slotOf(sink);
  }

  /** How many attached views said `ready`. */
  get readyCount(): number {
    return this.views.readyCount;
  }

  /** The slots of the attached views, ready or not. */
  attachedSlots(): Set<ViewSlot> {
    return this.views.slots();
  }

  /** Whether a ready view shows chat `chatId`. */
  shows(chatId: string): boolean {
    return this.views.shows(chatId);
  }

  /** What a view showing `slot` gets as its full state. */
  viewState(slot: ViewSlot): ViewState {
    const chat = this.model.chats.get(slot.chatId);
    const folders = this.model.workspaceFolders?.() ?? [];
    const agent = this.model.definitionOf(chat?.agentId);
    return {
      ...this.model.featureState(chat),
      agents: this.model.agents().map((definition) => ({
        id: definition.id,
        label: definition.label,
        ...(definition.description ? { description: definition.description } : {}),
      })),
      selectedAgentId: agent.id,
      status: this.model.status(agent.id),
      ...(chat
        ? {
            chat: {
              chatId: chat.id,
              thread: chat.thread.snapshot(),
              ...(chat.cwd === undefined ? {} : { cwd: chat.cwd }),
              ...(chat.saveProblem ? { saveProblem: chat.saveProblem } : {}),
              ...(chat.writtenElsewhere ? { readOnly: true as const } : {}),
            },
          }
        : {}),
      chats: this.chatList(),
      ...(slot.attachments.length > 0 ? { attachments: [...slot.attachments] } : {}),
      ...(folders.length > 0 ? { workspaceFolders: [...folders] } : {}),
    };
  }

  /** Every chat, most recently used first. */
  chatList(): ChatSummary[] {
    return this.model.chats.sorted().map((chat) => {
      const activity = this.model.activityOf?.(chat);
      return {
        chatId: chat.id,
        title: chat.title,
        agentId: chat.agentId,
        agentLabel: this.model.definitionOf(chat.agentId).label,
        updatedAt: chat.updatedAt,
        running: chat.running,
        ...(this.model.deletableOnAgent?.(chat.id) ? { deletableOnAgent: true } : {}),
        ...(chat.forkOf ? { forkOf: chat.forkOf } : {}),
        ...(activity?.state ? { activity: activity.state } : {}),
        ...(activity?.state === 'waiting' && activity.waitingFor
          ? { waitingFor: activity.waitingFor.slice(0, 300) }
          : {}),
      };
    });
  }

  /**
   * Sends the full state to the views of `slot` (of every slot without one). Queued events go out
   * first, so nothing the snapshot already holds arrives after it.
   */
  snapshot(slot?: ViewSlot): void {
    const targets = slot ? new Set([slot]) : this.views.readySlots();
    this.snapshotting = targets;
    try {
      for (const batcher of this.batchers.values()) {
        batcher.flush();
      }
    } finally {
      this.snapshotting = new Set();
    }
    for (const shown of targets) {
      this.postTo(shown, { type: 'snapshot', view: this.viewState(shown) });
      const damage = this.model.chats.damageNotice(shown.chatId);
      if (damage) {
        this.postTo(shown, {
          type: 'thread_events',
          chatId: shown.chatId,
          events: [{ type: 'notice', notice: damage }],
        });
      }
    }
    this.dropBatchers((chatId) => !this.views.shows(chatId));
    this.model.snapshotSent();
  }

  /** A chat's thread event: batched for the views showing the chat (the chat journals it itself). */
  threadEvent(chatId: string, event: ThreadEvent): void {
    if (!this.views.shows(chatId)) {
      return;
    }
    let batcher = this.batchers.get(chatId);
    if (!batcher) {
      batcher = new EventBatcher((events) =>
        this.views.post(
          { type: 'thread_events', chatId, events },
          (slot) => slot.chatId === chatId && !this.snapshotting.has(slot),
        ),
      );
      this.batchers.set(chatId, batcher);
    }
    batcher.push(event);
    // A turn's start and end are what the composer waits for: they are not held back — but they go at
    // the end of this job, with what it adds after them (the message that started the turn). Posted
    // alone, a start took the view's pending message away a frame before the turn's own copy came.
    if (event.type === 'turn_started' || event.type === 'turn_ended') {
      queueMicrotask(() => batcher.flush());
    }
  }

  /** An agent's state changed: the views whose chat runs on it are told, after their queued events. */
  agentStatus(agentId: string, status: AgentStatus): void {
    const concerned = (slot: ViewSlot): boolean => this.model.chats.get(slot.chatId)?.agentId === agentId;
    for (const slot of this.views.readySlots()) {
      if (concerned(slot)) {
        this.batchers.get(slot.chatId)?.flush();
      }
    }
    this.views.post({ type: 'agent_status', status }, concerned);
  }

  /** The chat list changed: each view gets it with its own active chat. */
  chats(): void {
    const chats = this.chatList();
    for (const slot of this.views.readySlots()) {
      this.views.postChatList(chats, slot.chatId, (shown) => shown === slot);
    }
  }

  /**
   * Chat `chat` changed (its title, activity or journal): the list, and to the views showing it whether
   * its journal saves (the same fields as the snapshot's).
   */
  chatChanged(chat: Conversation): void {
    this.chats();
    this.views.postChanged(
      `save_problem:${chat.id}`,
      {
        type: 'save_problem',
        chatId: chat.id,
        ...(chat.saveProblem ? { message: chat.saveProblem } : {}),
        ...(chat.writtenElsewhere ? { readOnly: true as const } : {}),
      },
      (slot) => slot.chatId === chat.id,
    );
  }

  /** Posts to the views showing chat `chatId`. */
  postToChat(chatId: string, message: HostMessage): void {
    this.views.post(message, (slot) => slot.chatId === chatId);
  }

  /** Posts to the views of `slot`. */
  postTo(slot: ViewSlot, message: HostMessage): void {
    this.views.post(message, (shown) => shown === slot);
  }

  /** Posts to every view. */
  postToAll(message: HostMessage): void {
    this.views.post(message);
  }

  private dropBatchers(drop: (chatId: string) => boolean): void {
    for (const [chatId, batcher] of this.batchers) {
      if (drop(chatId)) {
        batcher.dispose();
        this.batchers.delete(chatId);
      }
    }
  }

  dispose(): void {
    this.store.dispose();
  }
}
