import { DisposableStore, type Disposable } from '../core/util/disposable';
import type { Retention } from '../core/journal/journal';
import type { PromptBlock } from '../core/session/promptBlocks';
import type { ThreadEvent } from '../core/thread/threadTypes';
import type { AgentStatus, AttachmentRef, ChatSummary, ViewState } from '../protocol';
import { AgentChoice } from './agentChoice';
import { WindowChatSignals } from './windowChatSignals';
import { ChatActivity } from './chatActivity';
import type { AgentDefinition } from './agentSettings';
import { AgentPool, type AgentPoolDeps } from './agentPool';
import type { ChatContext, ChatContributionFactory } from './chatContribution';
import { ChatContributions } from './chatContributions';
import { ChatCollection } from './chatCollection';
import { ChatCommands } from './chatCommands';
import { ChatTurns } from './chatTurns';
import { ComposerActions } from './composerActions';
import type { Conversation, SessionPlace } from './conversation';
import { SessionCoordinator, type CoordinatorDeps } from './sessionCoordinator';
import { BASE_VIEW_MESSAGES, ViewMessageHandler } from './viewMessageHandler';
import { ViewPresenter } from './viewPresenter';
import type { ViewSlot } from './viewSlot';
import { ViewSlots } from './viewSlots';
import type { EditorActions, ViewSink } from './viewSink';

/** What the chat needs from its surroundings. */
export interface ChatControllerDeps extends Omit<AgentPoolDeps, 'writeNotes'>, CoordinatorDeps {
  readonly editor: EditorActions;
  /** The agent to select first (`acpAgents.defaultAgent`), when it is offered. */
  readonly defaultAgentId?: () => string | undefined;
  /** Where chats are journaled (the extension's workspace storage). */
  readonly storageDir: string;
  readonly retention?: () => Retention;
  /** The workspace folders' paths, so the view can show paths relative to them. */
  readonly workspaceFolders?: () => readonly string[];
  /** The chat's features, built in this order (src/chat/chatContribution.ts). */
  readonly contributions?: readonly ChatContributionFactory[];
  /** Whether a view showing chat `chatId` is on the user's screen (default: a view shows it). */
  readonly chatOnScreen?: (chatId: string) => boolean;
}

const DEFAULT_RETENTION: Retention = { maxChats: 100, maxBytes: 200 * 1024 * 1024 };

/**
 * Builds the chats, the agents and the services the views talk to (through the typed
 * `ViewMessageHandler`), free of `vscode`, and the features from their contributions; offers the window's
 * chat — the one the sidebar shows and the commands and the status bar act on — to the editor's commands.
 */
export class ChatController implements Disposable {
  private readonly store = new DisposableStore();
  private readonly pool: AgentPool;
  private readonly chats: ChatCollection;
  private readonly presenter: ViewPresenter;
  private readonly sessions: SessionCoordinator;
  private readonly router: ViewMessageHandler;
  private readonly agents: AgentChoice;
  private readonly slots: ViewSlots;
  private readonly contributions: ChatContributions;
  /** New, switch, rename, delete, change agent, restart (for the view that asks). */
  readonly commands: ChatCommands;
  /** Prompts, Stop, sign-in, permission answers, mode and options (for the view that asks). */
  readonly turns: ChatTurns;
  readonly composer: ComposerActions;
  /** The window's chat's agent state and whether it runs a turn, for the status bar. */
  private readonly windowSignals = this.store.add(
    new WindowChatSignals({
      chat: () => this.chats.get(this.windowSlot.chatId),
      status: () => this.currentStatus,
    }),
  );
  readonly onStatus = this.windowSignals.onStatus;
  readonly onWorking = this.windowSignals.onWorking;
  /** Resolves once the journal has been read and the chats are back. */
  readonly restored: Promise<void>;
  /** What every chat is doing (running, waiting for the user, unread, failed): the list, tabs, badge, notices. */
  readonly activity: ChatActivity;

  constructor(private readonly deps: ChatControllerDeps) {
    this.agents = new AgentChoice(() => deps.agents().agents, deps.defaultAgentId);
    this.contributions = this.store.add(
      new ChatContributions(deps.ports.logger, new Set(BASE_VIEW_MESSAGES)),
    );
    this.chats = this.store.add(this.collection());
    this.pool = this.store.add(
      new AgentPool({ ...deps, writeNotes: { note: (path) => this.contributions.beforeWrite(path) } }),
    );
    this.sessions = new SessionCoordinator(this.pool, this.chats, deps, {
      place: (chat) => this.contributions.sessionPlace(chat),
      refusal: (chat) => this.contributions.promptRefusal(chat),
    });
    this.store.add(this.sessions);
    this.activity = this.store.add(this.chatActivity());
    this.presenter = this.store.add(this.viewPresenter());
    this.slots = new ViewSlots(this.chats, this.presenter, this.agents);
    this.store.add(this.pool.onStatus(({ agentId, status }) => this.agentStatus(agentId, status)));
    this.restored = this.restore();
    const shared = {
      chats: this.chats,
      pool: this.pool,
      sessions: this.sessions,
      presenter: this.presenter,
      agents: this.agents,
      restored: this.restored,
    };
    this.commands = new ChatCommands({
      ...shared,
      slots: this.slots,
      shown: (view) => this.shown(view),
      deleted: (chatIds) => {
        this.activity.forget(chatIds);
        this.contributions.chatsDeleted(chatIds);
      },
    });
    this.turns = new ChatTurns({
      ...shared,
      files: deps.ports.fileSystem,
      contributed: (attachment) => this.contributions.attachmentBlock(attachment),
      viewReady: (view) => this.contributions.viewReady(view),
    });
    this.composer = new ComposerActions(this.presenter, deps.editor);
    this.contributions.build(deps.contributions ?? [], this.context());
    this.router = new ViewMessageHandler(
      {
        ...shared,
        commands: this.commands,
        turns: this.turns,
        composer: this.composer,
        editor: deps.editor,
        contributions: this.contributions,
      },
      deps.ports.logger,
      (message, view, details) =>
        this.presenter.postTo(view, { type: 'error', message, ...(details ? { details } : {}) }),
      this.restored,
    );
    // Disposed first: the last journal writes start before the chats let go of their threads.
    this.store.add({ dispose: () => void this.shutdown() });
  }

  private collection(): ChatCollection {
    const { deps } = this;
    return new ChatCollection(
      {
        storageDir: deps.storageDir,
        logger: deps.ports.logger,
        ...(deps.clientOptions?.threadLimits ? { threadLimits: deps.clientOptions.threadLimits } : {}),
        retention: () => deps.retention?.() ?? DEFAULT_RETENTION,
        beforePrompt: (chat, signal) => this.contributions.beforePrompt(chat, signal),
      },
      {
        onEvent: (chat, event) => this.onThreadEvent(chat, event),
        onChange: (chat) => this.onChatChange(chat),
        onDeleted: (chatIds) => this.commands.chatsDeleted(chatIds),
        onRestored: (chat) => this.contributions.chatRestored(chat),
      },
    );
  }

  private chatActivity(): ChatActivity {
    const activity = new ChatActivity({
      onScreen: (chatId) => this.deps.chatOnScreen?.(chatId) ?? this.presenter.shows(chatId),
      waitingFor: (chat) =>
        this.contributions.waitingFor(chat) ??
        (this.sessions.waitsForSignIn(chat.id) ? 'sign-in' : undefined),
      signIns: this.sessions.onDidChangeSignIn,
      chat: (chatId) => this.chats.get(chatId),
      ...(this.deps.clientOptions?.clock ? { clock: this.deps.clientOptions.clock } : {}),
    });
    this.store.add(activity.onDidChange(() => this.presenter.chats()));
    return activity;
  }

  private viewPresenter(): ViewPresenter {
    return new ViewPresenter({
      chats: this.chats,
      agents: () => this.agentsOffered,
      definitionOf: (agentId) => this.agents.definitionOr(agentId),
      status: (agentId) => this.pool.status(agentId),
      deletableOnAgent: (chatId) => this.commands.deletableOnAgent(chatId),
      featureState: (chat) => this.contributions.viewState(chat),
      activityOf: (chat) => ({ state: this.activity.state(chat.id), waitingFor: this.activity.detail(chat) }),
      snapshotSent: () => this.contributions.snapshotSent(),
      ...(this.deps.workspaceFolders ? { workspaceFolders: this.deps.workspaceFolders } : {}),
    });
  }

  /** What the features reach of the chat. */
  private context(): ChatContext {
    return {
      chats: this.chats,
      pool: this.pool,
      sessions: this.sessions,
      presenter: this.presenter,
      turns: this.turns,
      editor: this.deps.editor,
      logger: this.deps.ports.logger,
      restored: this.restored,
      switchChat: (chatId, view) => this.commands.switchChat(chatId, view),
      windowChatId: () => this.windowChatId,
      chatOfSession: (sessionId) => this.chatOfSession(sessionId),
      chatChanged: (chatId) => this.activity.changed(chatId),
      activity: this.activity,
    };
  }

  private async restore(): Promise<void> {
    await this.chats.restore();
    this.slots.restoredChats();
  }

  private agentStatus(agentId: string, status: AgentStatus): void {
    this.presenter.agentStatus(agentId, status);
    this.windowSignals.agentStatus(agentId, status);
    if (status.state !== 'ready' && status.state !== 'starting') {
      for (const chat of this.chats.sorted()) {
        if (chat.agentId === agentId && !this.pool.running(agentId)) {
          chat.detach();
        }
      }
    }
  }

  /**
   * A webview (re)connected. Nothing is posted to it before it says `ready` (pass it to `handleMessage`).
   * Without `own`, it shows the window's chat, in sync with every other such view (the sidebar). With
   * `own` it has a chat of its own (an editor tab): `own.chatId` if that chat exists, else a new one; a
   * switch, a new chat or an agent change there leaves the other views as they are.
   */
  attachView(sink: ViewSink, own?: { readonly chatId?: string }): Disposable {
    return this.slots.attach(sink, own);
  }

  /** The chat the view `sink` shows ('' before the journal is read; undefined for a view not attached). */
  chatShownBy(sink: ViewSink): string | undefined {
    return this.presenter.slotOf(sink)?.chatId;
  }

  /** The window's slot: the chat the sidebar shows, and the commands and the status bar act on. */
  get windowSlot(): ViewSlot {
    return this.slots.main;
  }

  /** The window's chat. */
  get windowChatId(): string {
    return this.slots.main.chatId;
  }

  /** The chat whose agent session is `sessionId`, when one is connected to it. */
  chatOfSession(sessionId: string): string | undefined {
    return this.chats.sorted().find((chat) => chat.currentSession?.id === sessionId)?.id;
  }

  /** Where the agent session `sessionId` works when a contribution gives its chat a place (a worktree). */
  placeOfSession(sessionId: string): SessionPlace | undefined {
    const chat = this.chats.get(this.chatOfSession(sessionId) ?? '');
    return chat && this.contributions.sessionPlace(chat);
  }

  /** What the user sees changed (a view shown or hidden, a tab brought forward): the chats on screen are read. */
  screenChanged(): void {
    this.activity.seen(this.chats.sorted());
  }

  /** The view message types the features answer (the base answers `BASE_VIEW_MESSAGES`). */
  answeredByFeatures(): ReadonlySet<string> {
    return this.contributions.answered();
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
    return this.router.handle(raw, this.slots.of(from));
  }

  /** The window's chat's agent. */
  get agent(): AgentDefinition {
    return this.agents.definitionOr(this.chats.get(this.windowSlot.chatId)?.agentId);
  }

  /** Whether the window's chat runs a turn (a new prompt would be refused). */
  get activeChatRunning(): boolean {
    return this.chats.get(this.windowSlot.chatId)?.running ?? false;
  }

  get currentStatus(): AgentStatus {
    return this.pool.status(this.agent.id);
  }

  /** The agents offered (for pickers). */
  get agentsOffered(): readonly AgentDefinition[] {
    return this.agents.offered;
  }

  /** What a view showing the window's chat gets as its full state. */
  viewState(): ViewState {
    return this.presenter.viewState(this.windowSlot);
  }

  /** Every chat, most recently used first. */
  chatList(): ChatSummary[] {
    return this.presenter.chatList();
  }

  // The editor's commands act on the window's chat.

  /** Sends a prompt to the window's chat. */
  async send(text: string): Promise<void> {
    await this.turns.sendPrompt([{ type: 'text', text }], this.windowSlot);
  }

  /** Sends prompt blocks (text, selections, files) to the window's chat, connecting first when needed. */
  sendPrompt(blocks: readonly PromptBlock[]): Promise<void> {
    return this.turns.sendPrompt(blocks, this.windowSlot);
  }

  /** Connects the window's chat; resolves whether it worked. */
  connectActive(): Promise<boolean> {
    return this.turns.connect(this.windowSlot);
  }

  /** Puts a file on the window's composer. */
  addAttachment(attachment: AttachmentRef): void {
    this.composer.addAttachment(attachment, this.windowSlot);
  }

  selectAgent(agentId: string): Promise<void> {
    return this.commands.selectAgent(agentId, this.windowSlot);
  }

  restart(): Promise<void> {
    return this.commands.restart(this.windowSlot);
  }

  /** Signs the window's chat's agent out (`logout`). */
  signOut(): Promise<void> {
    return this.commands.signOut(this.windowSlot);
  }

  newChat(): Promise<void> {
    return this.commands.newChat(this.windowSlot);
  }

  switchChat(chatId: string): Promise<void> {
    return this.commands.switchChat(chatId, this.windowSlot);
  }

  deleteChat(chatId: string, options: { readonly onAgent?: boolean } = {}): Promise<void> {
    return this.commands.deleteChat(chatId, options);
  }

  cancel(): Promise<void> {
    return this.turns.cancel(this.windowSlot);
  }

  /** The agent settings changed (see `ChatCommands.agentsChanged`). */
  agentsChanged(): void {
    this.commands.agentsChanged(this.windowSlot);
  }

  workspaceFoldersChanged(): void {
    this.presenter.snapshot();
  }

  /** The status bar follows the window's chat: tell it when that chat changed. */
  private shown(view: ViewSlot): void {
    this.screenChanged();
    if (view === this.windowSlot) {
      this.windowSignals.shown();
    }
  }

  private onChatChange(chat: Conversation): void {
    this.activity.update(chat);
    this.presenter.chatChanged(chat);
  }

  private onThreadEvent(chat: Conversation, event: ThreadEvent): void {
    this.contributions.threadEvent(chat, event);
    this.activity.threadEvent(chat, event);
    this.presenter.threadEvent(chat.id, event);
    this.windowSignals.threadEvent(chat, event);
  }

  /** Writes every journal, then stops every agent: what their stop ends is not written (deactivation). */
  async shutdown(): Promise<void> {
    await this.chats.close();
    await this.pool.stopAll();
  }

  dispose(): void {
    this.store.dispose();
  }
}
