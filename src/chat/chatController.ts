import { DisposableStore, Emitter, type Disposable } from '../core/disposable';
import type { Retention } from '../core/journal';
import type { PromptBlock } from '../core/promptBlocks';
import type { ThreadEvent } from '../core/threadTypes';
import type {
  AgentStatus,
  AttachmentRef,
  ChatSummary,
  DroppedTextFile,
  ImageAttachment,
  ViewState,
} from '../protocol';
import { DEMO_AGENT_ID, type AgentDefinition } from './agentSettings';
import { AgentPool, type PoolHost } from './agentPool';
import type { ChangeReview } from '../features/checkpoints/chat/changeReview';
import { ChatCollection } from './chatCollection';
import { composerPrompt, earlierChatMentions } from './composerContext';
import type { Conversation } from './conversation';
import {
  offerMessage,
  ProblemsWatch,
  problemsPrompt,
  type DiagnosticsPort,
} from '../features/problems/chat/problemsOffer';
import type { MentionSource } from '../features/mentions/chat/mentionSource';
import { SessionCoordinator } from './sessionCoordinator';
import { ViewMessageHandler, type ChatActions } from './viewMessageHandler';
import { ViewPresenter } from './viewPresenter';
import { ViewSlot } from './viewSlot';
import type { EditorActions, EditReviews, ViewSink } from './viewSink';

/** What the chat needs from its surroundings. */
export interface ChatHost extends PoolHost {
  readonly editor: EditorActions;
  /** The agent to select first (`acpAgents.defaultAgent`), when it is offered. */
  readonly defaultAgentId?: () => string | undefined;
  /** Where chats are journaled (the extension's workspace storage). */
  readonly storageDir: string;
  readonly retention?: () => Retention;
  /** File writes waiting for Keep or Undo, answered inline in the chat too. */
  readonly reviews?: EditReviews;
  /** Checkpoints before each turn and the turns' change cards (absent without a workspace folder). */
  readonly changes?: ChangeReview;
  /** The workspace folders' paths, so the view can show paths relative to them. */
  readonly workspaceFolders?: () => readonly string[];
  /** The editor's Problems: new ones after a turn are offered back ("Fix N new problems"). */
  readonly diagnostics?: DiagnosticsPort;
  /** The @-mention picker's workspace entries (absent: only earlier chats are offered). */
  readonly mentions?: MentionSource;
}

/** How many entries the @-mention picker shows. */
const MENTION_LIMIT = 50;

const DEFAULT_RETENTION: Retention = { maxChats: 100, maxBytes: 200 * 1024 * 1024 };

/**
 * The chat's brain, free of `vscode`: the chats (journaled, listed, switched, renamed, deleted) and
 * what each view asks of them. Parsing and routing view messages is the `ViewMessageHandler`'s job,
 * what the views are sent the `ViewPresenter`'s, connecting agents the `SessionCoordinator`'s.
 */
export class ChatController implements ChatActions, Disposable {
  private readonly store = new DisposableStore();
  private readonly pool: AgentPool;
  private readonly chats: ChatCollection;
  private readonly presenter: ViewPresenter;
  private readonly sessions: SessionCoordinator;
  private readonly router: ViewMessageHandler;
  private readonly problems: ProblemsWatch | undefined;
  /** The window's slot (the sidebar): the chat the commands and the status bar act on. */
  private readonly main = new ViewSlot();
  private readonly statusEmitter = this.store.add(new Emitter<AgentStatus>());
  /** The window's chat's agent state, for the status bar. */
  readonly onStatus = this.statusEmitter.event;
  private readonly workingEmitter = this.store.add(new Emitter<boolean>());
  /** Whether the window's chat runs a turn, each time that changes (for the status bar). */
  readonly onWorking = this.workingEmitter.event;
  /** Resolves once the journal has been read and the chats are back. */
  readonly restored: Promise<void>;
  private isRestored = false;
  /** Views of their own waiting for the journal before their chat is chosen: the chat each asked for. */
  private readonly unsettled = new Map<ViewSlot, string | undefined>();

  constructor(private readonly host: ChatHost) {
    this.chats = this.store.add(
      new ChatCollection(
        {
          storageDir: host.storageDir,
          logger: host.ports.logger,
          ...(host.clientOptions?.threadLimits ? { threadLimits: host.clientOptions.threadLimits } : {}),
          retention: () => this.host.retention?.() ?? DEFAULT_RETENTION,
          ...(host.changes ? { changes: host.changes } : {}),
        },
        {
          onEvent: (chat, event) => this.onThreadEvent(chat, event),
          onChange: (chat) => this.onChatChange(chat),
          onDeleted: (chatIds) => this.chatsDeleted(chatIds),
        },
      ),
    );
    this.pool = this.store.add(new AgentPool(host));
    this.sessions = new SessionCoordinator(this.pool, this.chats, host);
    this.problems =
      host.diagnostics &&
      this.store.add(
        new ProblemsWatch(host.diagnostics, (chatId, offer) =>
          this.presenter.postToChat(chatId, {
            type: 'problems_offer',
            chatId,
            ...(offer ? { offer: offerMessage(offer, (path) => this.relativePath(path)) } : {}),
          }),
        ),
      );
    this.presenter = this.store.add(
      new ViewPresenter({
        chats: this.chats,
        agents: () => this.agentsOffered,
        definitionOf: (agentId) => this.definitionOr(agentId),
        status: (agentId) => this.pool.status(agentId),
        problemsOffer: (chatId) => {
          const offer = this.problems?.offer(chatId);
          return offer && offerMessage(offer, (path) => this.relativePath(path));
        },
        terminals: host.ports.terminals,
        ...(host.reviews ? { reviews: host.reviews } : {}),
        ...(host.workspaceFolders ? { workspaceFolders: host.workspaceFolders } : {}),
      }),
    );
    this.store.add(
      this.pool.onStatus(({ agentId, status }) => {
        this.presenter.agentStatus(agentId, status);
        if (agentId === this.chats.get(this.main.chatId)?.agentId) {
          this.statusEmitter.fire(status);
        }
        if (status.state !== 'ready' && status.state !== 'starting') {
          for (const chat of this.chats.sorted()) {
            if (chat.agentId === agentId && !this.pool.running(agentId)) {
              chat.detach();
            }
          }
        }
      }),
    );
    this.restored = this.restore();
    this.router = new ViewMessageHandler(
      this,
      host.editor,
      host.ports.logger,
      (message, view, details) =>
        this.presenter.postTo(view, { type: 'error', message, ...(details ? { details } : {}) }),
      this.restored,
    );
    // Disposed first: the last journal writes start before the chats let go of their threads.
    this.store.add({ dispose: () => void this.shutdown() });
  }

  private async restore(): Promise<void> {
    await this.chats.restore();
    const newest = this.chats.sorted()[0];
    this.main.chatId =
      newest && this.offered(newest.agentId) ? newest.id : this.chats.create(this.defaultAgent().id).id;
    this.isRestored = true;
    for (const [slot, chatId] of this.unsettled) {
      this.settle(slot, chatId);
    }
    this.unsettled.clear();
  }

  /**
   * A webview (re)connected. Nothing is posted to it before it says `ready` (pass it to `handleMessage`).
   * Without `own`, it shows the window's chat, in sync with every other such view (the sidebar). With
   * `own` it has a chat of its own (an editor tab): `own.chatId` if that chat exists, else a new one; a
   * switch, a new chat or an agent change there leaves the other views as they are.
   */
  attachView(sink: ViewSink, own?: { readonly chatId?: string }): Disposable {
    if (!own) {
      return this.presenter.attach(sink, this.main);
    }
    const slot = new ViewSlot();
    if (this.isRestored) {
      this.settle(slot, own.chatId);
    } else {
      this.unsettled.set(slot, own.chatId);
    }
    const attachment = this.presenter.attach(sink, slot);
    return {
      dispose: () => {
        this.unsettled.delete(slot);
        attachment.dispose();
      },
    };
  }

  /** Gives a view of its own the chat it asked for, or a new one when that chat is gone (or none was named). */
  private settle(slot: ViewSlot, chatId: string | undefined): void {
    if (chatId !== undefined && this.chats.get(chatId)) {
      slot.chatId = chatId;
      return;
    }
    const current = this.chats.get(this.main.chatId);
    slot.chatId = this.chats.create(
      current && this.offered(current.agentId) ? current.agentId : this.defaultAgent().id,
    ).id;
  }

  /** The chat the view `sink` shows ('' before the journal is read; undefined for a view not attached). */
  chatShownBy(sink: ViewSink): string | undefined {
    return this.presenter.slotOf(sink)?.chatId;
  }

  /** The window's chat: the one the sidebar shows, and the commands and the status bar act on. */
  get windowChatId(): string {
    return this.main.chatId;
  }

  /** The chat whose agent session is `sessionId`, when one is connected to it. */
  chatOfSession(sessionId: string): string | undefined {
    return this.chats.sorted().find((chat) => chat.currentSession?.id === sessionId)?.id;
  }

  /** How many attached webviews said `ready`: their script loaded, ran and rendered the chat. */
  get readyViewCount(): number {
    return this.presenter.readyCount;
  }

  /**
   * Handles one message from the webview `from` (parsed there; a malformed one is reported). Without
   * `from`, a `ready` counts for every attached view.
   */
  handleMessage(raw: unknown, from?: ViewSink): Promise<void> {
    this.presenter.noteReady(raw, from);
    return this.router.handle(raw, (from && this.presenter.slotOf(from)) ?? this.main);
  }

  /** The view said `ready`: it gets the full state, and its chat's agent is started. */
  viewReady(view: ViewSlot = this.main): void {
    this.presenter.snapshot(view);
    this.host.changes?.warmUp();
    if (this.pool.status(this.chatOf(view).agentId).state === 'idle') {
      void this.connectActive(view);
    }
  }

  async sendFromView(
    text: string,
    attachments: readonly AttachmentRef[],
    images: readonly ImageAttachment[] = [],
    textFiles: readonly DroppedTextFile[] = [],
    view: ViewSlot = this.main,
  ): Promise<void> {
    view.clearAttachments();
    await this.sendPrompt(
      await composerPrompt(
        { text, attachments, images, textFiles },
        { files: this.host.ports.fileSystem, mentions: this.host.mentions, chat: (id) => this.chats.get(id) },
      ),
      view,
    );
  }

  /** Answers the @-mention picker: the workspace's entries, then earlier chats that match. */
  async queryMentions(query: string, requestId: number, view: ViewSlot = this.main): Promise<void> {
    const workspace = (await this.host.mentions?.query(query, MENTION_LIMIT)) ?? [];
    const chats = earlierChatMentions(this.chats.sorted(), view.chatId, query);
    this.presenter.postTo(view, {
      type: 'mention_results',
      requestId,
      items: [...workspace, ...chats].slice(0, 200),
    });
  }

  /** The paperclip: the files the user picks go on the composer. */
  async pickFiles(view: ViewSlot = this.main): Promise<void> {
    const picked = (await this.host.editor.pickFiles?.()) ?? [];
    for (const attachment of picked) {
      this.addAttachment(attachment, view);
    }
  }

  /** Puts a file on the view's composer, to go with the next message (kept until sent, across view reloads). */
  addAttachment(attachment: AttachmentRef, view: ViewSlot = this.main): void {
    if (view.addAttachment(attachment)) {
      this.presenter.postTo(view, { type: 'add_attachment', attachment });
    }
  }

  removeAttachment(uri: string, view: ViewSlot = this.main): void {
    view.removeAttachment(uri);
  }

  answerPermission(key: string, optionId: string | null, view: ViewSlot = this.main): void {
    this.chatOf(view).currentSession?.answerPermission(
      key,
      optionId === null ? { outcome: 'cancelled' } : { outcome: 'selected', optionId },
    );
  }

  async setMode(modeId: string, view: ViewSlot = this.main): Promise<void> {
    await (await this.sessions.requireSession(this.chatOf(view))).setMode(modeId);
  }

  async setConfigOption(
    configId: string,
    value: string | boolean,
    view: ViewSlot = this.main,
  ): Promise<void> {
    await (await this.sessions.requireSession(this.chatOf(view))).setConfigOption(configId, value);
  }

  /** The change card's actions on the view's chat's turn `turnId`. */
  async turnChanges(
    turnId: string,
    action: 'diff' | 'keep' | 'undo',
    path?: string,
    view: ViewSlot = this.main,
  ): Promise<void> {
    await this.changeReview().act(this.chatOf(view).thread, turnId, action, path);
  }

  /** Puts the workspace back to before the view's chat's turn `turnId` (the user confirms first). */
  async restoreCheckpoint(turnId: string, view: ViewSlot = this.main): Promise<void> {
    await this.changeReview().restore(this.chatOf(view).thread, turnId);
  }

  /** Sends the problems offered after turn `turnId` to the view's chat's agent as the next prompt. */
  async fixProblems(turnId: string, view: ViewSlot = this.main): Promise<void> {
    const chat = this.chatOf(view);
    if (!this.problems || !this.host.diagnostics) {
      throw new Error('Problems are not available here.');
    }
    if (chat.running) {
      throw new Error('A turn is running: wait for it to end (or stop it), then fix the problems.');
    }
    const offer = this.problems.take(chat.id, turnId);
    await this.sendPrompt(
      problemsPrompt(offer.problems, (path) => this.relativePath(path)),
      view,
    );
  }

  dismissProblems(view: ViewSlot = this.main): void {
    this.problems?.dismiss(view.chatId);
  }

  answerReview(id: string, decision: 'keep' | 'undo'): void {
    if (!this.host.reviews?.answer(id, decision)) {
      throw new Error('That edit was already decided.');
    }
  }

  /** The window's chat's agent. */
  get agent(): AgentDefinition {
    return this.definitionOr(this.chats.get(this.main.chatId)?.agentId);
  }

  /** Whether the window's chat runs a turn (a new prompt would be refused). */
  get activeChatRunning(): boolean {
    return this.chats.get(this.main.chatId)?.running ?? false;
  }

  get currentStatus(): AgentStatus {
    return this.pool.status(this.agent.id);
  }

  /** The agents offered (for pickers). */
  get agentsOffered(): readonly AgentDefinition[] {
    return this.host.agents().agents;
  }

  /** What a view showing the window's chat gets as its full state. */
  viewState(): ViewState {
    return this.presenter.viewState(this.main);
  }

  /** Every chat, most recently used first. */
  chatList(): ChatSummary[] {
    return this.presenter.chatList();
  }

  /** Sends a prompt to the window's chat. */
  async send(text: string): Promise<void> {
    await this.sendPrompt([{ type: 'text', text }]);
  }

  /** Sends prompt blocks (text, selections, files) to the view's chat, connecting first when needed. */
  async sendPrompt(blocks: readonly PromptBlock[], view: ViewSlot = this.main): Promise<void> {
    await this.restored;
    await this.sessions.sendPrompt(this.chatOf(view), blocks);
  }

  /** Connects the view's chat (starts its agent, takes up its session); resolves whether it worked. */
  async connectActive(view: ViewSlot = this.main): Promise<boolean> {
    await this.restored;
    return (await this.sessions.connect(this.chatOf(view))) !== undefined;
  }

  async authenticate(methodId: string, view: ViewSlot = this.main): Promise<void> {
    await this.sessions.authenticate(this.chatOf(view), methodId);
  }

  /** Switches the view to `agentId`: its empty chat changes agent, otherwise a new chat starts with it. */
  async selectAgent(agentId: string, view: ViewSlot = this.main): Promise<void> {
    this.definitionOr(agentId, true);
    const chat = this.chatOf(view);
    if (chat.agentId === agentId) {
      if (this.pool.status(this.definitionOr(agentId).id).state === 'error') {
        await this.restart(view);
      }
      return;
    }
    if (!chat.changeAgent(agentId)) {
      view.chatId = this.chats.create(agentId).id;
    }
    this.presenter.snapshot(view);
    this.mainChanged(view);
    await this.sessions.connect(this.chatOf(view));
  }

  /** Restarts the view's chat's agent; its chats take up their sessions again. */
  async restart(view: ViewSlot = this.main): Promise<void> {
    await this.sessions.restart(this.chatOf(view));
  }

  /** Starts a new, empty chat in the view with its chat's agent. */
  async newChat(view: ViewSlot = this.main): Promise<void> {
    await this.restored;
    const current = this.chats.get(view.chatId);
    const agentId = current && this.offered(current.agentId) ? current.agentId : this.defaultAgent().id;
    view.chatId = this.chats.create(agentId).id;
    this.presenter.snapshot(view);
    await this.sessions.connect(this.chatOf(view));
  }

  async switchChat(chatId: string, view: ViewSlot = this.main): Promise<void> {
    if (!this.chats.get(chatId)) {
      throw new Error(`Unknown chat ${chatId}`);
    }
    view.chatId = chatId;
    this.presenter.snapshot(view);
    this.mainChanged(view);
  }

  async renameChat(chatId: string, title: string): Promise<void> {
    const chat = this.chats.get(chatId);
    if (!chat) {
      throw new Error(`Unknown chat ${chatId}`);
    }
    chat.rename(title);
  }

  /** Deletes a chat and its journal; a view showing it moves to the next (or a new) one. */
  async deleteChat(chatId: string): Promise<void> {
    const chat = this.chats.get(chatId);
    if (!chat) {
      throw new Error(`Unknown chat ${chatId}`);
    }
    await chat.cancel();
    await this.chats.delete(chatId);
    this.chatsDeleted([chatId]);
  }

  /** Chats are gone (deleted, or dropped by retention): each view that showed one moves to the next (or a new) chat. */
  private chatsDeleted(chatIds: readonly string[]): void {
    const gone = new Set(chatIds);
    for (const chatId of gone) {
      this.sessions.forget(chatId);
    }
    const moved = new Set(
      [...this.presenter.attachedSlots(), this.main].filter((slot) => gone.has(slot.chatId)),
    );
    for (const slot of moved) {
      const next = this.chats.sorted()[0];
      slot.chatId = next ? next.id : this.chats.create(this.defaultAgent().id).id;
    }
    for (const slot of moved) {
      this.presenter.snapshot(slot);
    }
    this.presenter.chats();
    if (moved.has(this.main)) {
      this.mainChanged(this.main);
    }
  }

  /** The resume banner's action. */
  async startFresh(view: ViewSlot = this.main): Promise<void> {
    await this.sessions.startFresh(this.chatOf(view));
  }

  /** Sends the last prompt of the view's chat again. */
  async retry(view: ViewSlot = this.main): Promise<void> {
    const text = this.chatOf(view).lastUserText();
    if (text === undefined) {
      throw new Error('There is nothing to retry.');
    }
    await this.sendPrompt([{ type: 'text', text }], view);
  }

  async cancel(view: ViewSlot = this.main): Promise<void> {
    await this.chats.get(view.chatId)?.cancel();
  }

  /** The agent settings changed: agents no longer offered are stopped, and the views get the new list. */
  agentsChanged(): void {
    for (const agentId of this.pool.agentIds()) {
      if (!this.offered(agentId)) {
        void this.pool.stop(agentId);
      }
    }
    // The demo agent stays offered once real agents are there, but an empty chat with it moves on to
    // the default agent, as it did when the demo was only a stand-in for "no agent yet".
    const chat = this.chats.get(this.main.chatId);
    const fallback = this.defaultAgent();
    if (chat?.agentId === DEMO_AGENT_ID && fallback.id !== DEMO_AGENT_ID && chat.changeAgent(fallback.id)) {
      this.mainChanged(this.main);
    }
    this.presenter.snapshot();
  }

  /** The workspace folders changed: the views show paths relative to the new ones. */
  workspaceFoldersChanged(): void {
    this.presenter.snapshot();
  }

  /** The status bar follows the window's chat: tell it when that chat changed. */
  private mainChanged(view: ViewSlot): void {
    if (view === this.main) {
      this.statusEmitter.fire(this.currentStatus);
      this.workingEmitter.fire(this.activeChatRunning);
    }
  }

  private onChatChange(chat: Conversation): void {
    this.presenter.chats();
    this.presenter.postToChat(chat.id, {
      type: 'resume_problem',
      chatId: chat.id,
      ...(chat.resumeProblem ? { message: chat.resumeProblem } : {}),
      ...(chat.resumeDetails ? { details: chat.resumeDetails } : {}),
    });
  }

  private onThreadEvent(chat: Conversation, event: ThreadEvent): void {
    this.problems?.observe(chat.id, chat.thread, event);
    this.presenter.threadEvent(chat.id, event);
    if (chat.id === this.main.chatId && (event.type === 'turn_started' || event.type === 'turn_ended')) {
      this.workingEmitter.fire(event.type === 'turn_started');
    }
  }

  /** The chat a view shows. */
  private chatOf(view: ViewSlot): Conversation {
    const chat = this.chats.get(view.chatId);
    if (!chat) {
      throw new Error('No chat is open.');
    }
    return chat;
  }

  private relativePath(path: string): string {
    return this.host.diagnostics?.relativePath(path) ?? path;
  }

  private changeReview(): ChangeReview {
    if (!this.host.changes) {
      throw new Error('Reviewing changes needs a workspace folder.');
    }
    return this.host.changes;
  }

  private offered(agentId: string): boolean {
    return this.agentsOffered.some((agent) => agent.id === agentId);
  }

  private defaultAgent(): AgentDefinition {
    const wanted = this.host.defaultAgentId?.();
    return (
      this.agentsOffered.find((agent) => agent.id === wanted || agent.label === wanted) ??
      (this.agentsOffered[0] as AgentDefinition)
    );
  }

  /** The definition of `agentId`; a chat whose agent is no longer configured falls back to the default (or throws). */
  private definitionOr(agentId: string | undefined, strict = false): AgentDefinition {
    const found = this.agentsOffered.find((agent) => agent.id === agentId);
    if (!found && strict) {
      throw new Error(`Unknown agent ${agentId}`);
    }
    return found ?? this.defaultAgent();
  }

  /** Writes every journal and stops every agent (deactivation). */
  async shutdown(): Promise<void> {
    await this.chats.flush();
    await this.pool.stopAll();
  }

  dispose(): void {
    this.store.dispose();
  }
}
