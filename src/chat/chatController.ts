import type { AgentSession } from '../core/agentSession';
import { Emitter, type Disposable } from '../core/disposable';
import type { Retention } from '../core/journal';
import type { PromptBlock } from '../core/promptBlocks';
import type { ThreadEvent } from '../core/threadTypes';
import {
  type AgentStatus,
  type AttachmentRef,
  type ChatSummary,
  type DroppedTextFile,
  type HostMessage,
  type ProblemsOfferMessage,
  type ImageAttachment,
  type ViewState,
} from '../protocol';
import type { AgentDefinition } from './agentSettings';
import { AgentPool, type PoolHost } from './agentPool';
import type { ChangeReview } from './changeReview';
import { ChatCollection } from './chatCollection';
import { composerPrompt, earlierChatMentions } from './composerContext';
import type { Conversation } from './conversation';
import { EventBatcher } from './eventBatcher';
import {
  offerMessage,
  ProblemsWatch,
  problemsPrompt,
  type DiagnosticsPort,
  type ProblemsOffer,
} from './problemsOffer';
import type { MentionSource } from './mentions/mentionSource';
import { signIn } from './signIn';
import { TerminalRelay } from './terminalRelay';
import { ViewConnections } from './viewConnections';
import { ViewMessageHandler, type ChatActions } from './viewMessageHandler';
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
 * The sidebar chat's brain, free of `vscode`: the chats (journaled, listed, switched, renamed,
 * deleted), the agents behind them, and the conversation with the webview — a ready handshake,
 * a full snapshot, then coalesced events of the active chat. Every view message is parsed first.
 */
export class ChatController implements ChatActions, Disposable {
  private readonly views = new ViewConnections();
  private readonly pool: AgentPool;
  private readonly chats: ChatCollection;
  private activeId = '';
  /** Prompts that waited for a sign-in, per chat; sent after `authenticate`. */
  private readonly waitingForSignIn = new Map<string, readonly PromptBlock[]>();
  private attachments: AttachmentRef[] = [];
  private readonly batcher = new EventBatcher((events) =>
    this.post({ type: 'thread_events', chatId: this.activeId, events }),
  );
  private readonly terminals: TerminalRelay;
  private readonly statusEmitter = new Emitter<AgentStatus>();
  /** The active chat's agent state, for the status bar. */
  readonly onStatus = this.statusEmitter.event;
  private readonly workingEmitter = new Emitter<boolean>();
  /** Whether the active chat runs a turn, each time that changes (for the status bar). */
  readonly onWorking = this.workingEmitter.event;
  /** Resolves once the journal has been read and the chats are back. */
  readonly restored: Promise<void>;
  private readonly poolSubscription: Disposable;
  private readonly reviewSubscription: Disposable | undefined;
  private readonly viewMessages: ViewMessageHandler;
  private readonly problems: ProblemsWatch | undefined;

  constructor(private readonly host: ChatHost) {
    this.chats = new ChatCollection(
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
        onDeleted: () => this.postChats(),
      },
    );
    this.pool = new AgentPool(host);
    this.terminals = new TerminalRelay(host.ports.terminals, (terminal) =>
      this.post({ type: 'terminal_output', terminal }),
    );
    this.poolSubscription = this.pool.onStatus(({ agentId, status }) => {
      if (agentId === this.active?.agentId) {
        this.batcher.flush();
        this.post({ type: 'agent_status', status });
        this.statusEmitter.fire(status);
      }
      if (status.state !== 'ready' && status.state !== 'starting') {
        for (const chat of this.chats.sorted()) {
          if (chat.agentId === agentId && !this.pool.running(agentId)) {
            chat.detach();
          }
        }
      }
    });
    this.reviewSubscription = host.reviews?.onDidChange((reviews) =>
      this.post({ type: 'edit_reviews', reviews: [...reviews] }),
    );
    this.problems =
      host.diagnostics &&
      new ProblemsWatch(host.diagnostics, (chatId, offer) => {
        if (chatId === this.activeId) {
          this.post({ type: 'problems_offer', chatId, ...(offer ? { offer: this.offerView(offer) } : {}) });
        }
      });
    this.restored = this.restore();
    this.viewMessages = new ViewMessageHandler(
      this,
      host.editor,
      host.ports.logger,
      (message, details) => this.post({ type: 'error', message, ...(details ? { details } : {}) }),
      this.restored,
    );
  }

  private async restore(): Promise<void> {
    await this.chats.restore();
    const newest = this.chats.sorted()[0];
    this.activeId =
      newest && this.offered(newest.agentId) ? newest.id : this.createChat(this.defaultAgent().id).id;
  }

  /**
   * A webview (re)connected. Nothing is posted to it before it says `ready` (pass it to `handleMessage`).
   * Several webviews (the sidebar and editor tabs) show the same active chat, kept in sync.
   */
  attachView(sink: ViewSink): Disposable {
    return this.views.attach(sink, () => this.batcher.clear());
  }

  /** How many attached webviews said `ready`: their script loaded, ran and rendered the chat. */
  get readyViewCount(): number {
    return this.views.readyCount;
  }

  /**
   * Handles one message from the webview `from` (parsed there; a malformed one is reported). Without
   * `from`, a `ready` counts for every attached view.
   */
  handleMessage(raw: unknown, from?: ViewSink): Promise<void> {
    this.views.noteReady(raw, from);
    return this.viewMessages.handle(raw);
  }

  /** The view said `ready`: it gets the full state, and the active chat's agent is started. */
  viewReady(): void {
    this.postSnapshot();
    this.host.changes?.warmUp();
    if (this.pool.status(this.activeChat().agentId).state === 'idle') {
      void this.connectActive();
    }
  }

  async sendFromView(
    text: string,
    attachments: readonly AttachmentRef[],
    images: readonly ImageAttachment[] = [],
    textFiles: readonly DroppedTextFile[] = [],
  ): Promise<void> {
    this.attachments = [];
    await this.sendPrompt(
      await composerPrompt(
        { text, attachments, images, textFiles },
        { files: this.host.ports.fileSystem, mentions: this.host.mentions, chat: (id) => this.chats.get(id) },
      ),
    );
  }

  /** Answers the @-mention picker: the workspace's entries, then earlier chats that match. */
  async queryMentions(query: string, requestId: number): Promise<void> {
    const workspace = (await this.host.mentions?.query(query, MENTION_LIMIT)) ?? [];
    const chats = earlierChatMentions(this.chats.sorted(), this.activeId, query);
    this.post({ type: 'mention_results', requestId, items: [...workspace, ...chats].slice(0, 200) });
  }

  /** The paperclip: the files the user picks go on the composer. */
  async pickFiles(): Promise<void> {
    const picked = (await this.host.editor.pickFiles?.()) ?? [];
    for (const attachment of picked) {
      this.addAttachment(attachment);
    }
  }

  answerPermission(key: string, optionId: string | null): void {
    this.activeChat().currentSession?.answerPermission(
      key,
      optionId === null ? { outcome: 'cancelled' } : { outcome: 'selected', optionId },
    );
  }

  async setMode(modeId: string): Promise<void> {
    await (await this.requireSession()).setMode(modeId);
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    await (await this.requireSession()).setConfigOption(configId, value);
  }

  removeAttachment(uri: string): void {
    this.attachments = this.attachments.filter((attachment) => attachment.uri !== uri);
  }

  /** The change card's actions on the active chat's turn `turnId`. */
  async turnChanges(turnId: string, action: 'diff' | 'keep' | 'undo', path?: string): Promise<void> {
    await this.changeReview().act(this.activeChat().thread, turnId, action, path);
  }

  /** Puts the workspace back to before the active chat's turn `turnId` (the user confirms first). */
  async restoreCheckpoint(turnId: string): Promise<void> {
    await this.changeReview().restore(this.activeChat().thread, turnId);
  }

  /** Sends the problems offered after turn `turnId` to the active chat's agent as the next prompt. */
  async fixProblems(turnId: string): Promise<void> {
    const chat = this.activeChat();
    if (!this.problems || !this.host.diagnostics) {
      throw new Error('Problems are not available here.');
    }
    if (chat.running) {
      throw new Error('A turn is running: wait for it to end (or stop it), then fix the problems.');
    }
    const offer = this.problems.take(chat.id, turnId);
    await this.sendPrompt(
      problemsPrompt(offer.problems, (path) => this.host.diagnostics?.relativePath(path) ?? path),
    );
  }

  dismissProblems(): void {
    this.problems?.dismiss(this.activeId);
  }

  private offerView(offer: ProblemsOffer): ProblemsOfferMessage {
    return offerMessage(offer, (path) => this.host.diagnostics?.relativePath(path) ?? path);
  }

  private changeReview(): ChangeReview {
    if (!this.host.changes) {
      throw new Error('Reviewing changes needs a workspace folder.');
    }
    return this.host.changes;
  }

  answerReview(id: string, decision: 'keep' | 'undo'): void {
    if (!this.host.reviews?.answer(id, decision)) {
      throw new Error('That edit was already decided.');
    }
  }

  /** The active chat's agent. */
  get agent(): AgentDefinition {
    return this.definitionOr(this.active?.agentId);
  }

  /** Whether the active chat runs a turn (a new prompt would be refused). */
  get activeChatRunning(): boolean {
    return this.active?.running ?? false;
  }

  get currentStatus(): AgentStatus {
    return this.pool.status(this.agent.id);
  }

  /** The agents offered (for pickers). */
  get agentsOffered(): readonly AgentDefinition[] {
    return this.host.agents().agents;
  }

  viewState(): ViewState {
    const chat = this.active;
    const folders = this.host.workspaceFolders?.() ?? [];
    return {
      agents: this.agentsOffered.map((agent) => ({
        id: agent.id,
        label: agent.label,
        ...(agent.description ? { description: agent.description } : {}),
      })),
      selectedAgentId: this.agent.id,
      status: this.currentStatus,
      ...(chat
        ? {
            chat: {
              chatId: chat.id,
              thread: chat.thread.snapshot(),
              ...(chat.resumeProblem ? { resumeProblem: chat.resumeProblem } : {}),
              ...(chat.resumeDetails ? { resumeDetails: chat.resumeDetails } : {}),
            },
          }
        : {}),
      chats: this.chatList(),
      ...(this.attachments.length > 0 ? { attachments: [...this.attachments] } : {}),
      ...(chat && this.problems?.offer(chat.id)
        ? { problemsOffer: this.offerView(this.problems.offer(chat.id) as ProblemsOffer) }
        : {}),
      ...(this.host.reviews && this.host.reviews.pending().length > 0
        ? { editReviews: [...this.host.reviews.pending()] }
        : {}),
      ...(folders.length > 0 ? { workspaceFolders: [...folders] } : {}),
    };
  }

  /** Every chat, most recently used first. */
  chatList(): ChatSummary[] {
    return this.chats.sorted().map((chat) => ({
      chatId: chat.id,
      title: chat.title,
      agentId: chat.agentId,
      agentLabel: this.definitionOr(chat.agentId).label,
      updatedAt: chat.updatedAt,
      running: chat.running,
    }));
  }

  /** Sends a prompt to the active chat. */
  async send(text: string): Promise<void> {
    await this.sendPrompt([{ type: 'text', text }]);
  }

  /** Sends prompt blocks (text, selections, files) to the active chat, connecting first when needed. */
  async sendPrompt(blocks: readonly PromptBlock[]): Promise<void> {
    await this.restored;
    const chat = this.activeChat();
    if (chat.running) {
      throw new Error('A turn is already running; wait for it or press Stop.');
    }
    if (chat.resumeProblem) {
      throw new Error(`${chat.resumeProblem} Start a new session with this transcript to go on.`);
    }
    const session = await this.connect(chat);
    if (!session) {
      if (this.pool.status(chat.agentId).error?.kind === 'auth_required') {
        this.waitingForSignIn.set(chat.id, blocks);
      }
      return;
    }
    this.pool.setBusy(chat.agentId, true);
    try {
      await chat.prompt(session, blocks);
    } finally {
      this.pool.setBusy(
        chat.agentId,
        this.chats.sorted().some((c) => c.agentId === chat.agentId && c.running),
      );
    }
  }

  /** Connects the active chat (starts its agent, takes up its session); resolves whether it worked. */
  async connectActive(): Promise<boolean> {
    await this.restored;
    return (await this.connect(this.activeChat())) !== undefined;
  }

  /** The chat's session, starting its agent and taking up or creating the session; failures go to the status. */
  private async connect(chat: Conversation): Promise<AgentSession | undefined> {
    try {
      const client = await this.pool.client(chat.agentId);
      const session = await chat.ensureSession(client, this.host.cwd());
      this.pool.clearReport(chat.agentId);
      return session;
    } catch (error) {
      if (!chat.resumeProblem) {
        this.pool.report(chat.agentId, error);
      }
      return undefined;
    }
  }

  private async requireSession(): Promise<AgentSession> {
    const session = await this.connect(this.activeChat());
    if (!session) {
      throw new Error('The agent is not connected.');
    }
    return session;
  }

  /** Puts a file on the view's composer, to go with the next message (kept until sent, across view reloads). */
  addAttachment(attachment: AttachmentRef): void {
    if (!this.attachments.some((a) => a.uri === attachment.uri)) {
      this.attachments.push(attachment);
      this.post({ type: 'add_attachment', attachment });
    }
  }

  async authenticate(methodId: string): Promise<void> {
    const chat = this.activeChat();
    const client = await this.pool.client(chat.agentId);
    const outcome = await signIn(methodId, client, this.pool.definition(chat.agentId), this.host.signIn);
    if (outcome === 'dismissed') {
      return;
    }
    if (outcome === 'restart') {
      await this.pool.restart(chat.agentId);
    }
    const waiting = this.waitingForSignIn.get(chat.id);
    this.waitingForSignIn.delete(chat.id);
    const session = await this.connect(chat);
    if (session && waiting) {
      await this.sendPrompt(waiting);
    }
  }

  /** Switches to `agentId`: the empty active chat changes agent, otherwise a new chat starts with it. */
  async selectAgent(agentId: string): Promise<void> {
    this.definitionOr(agentId, true);
    const chat = this.activeChat();
    if (chat.agentId === agentId) {
      if (this.currentStatus.state === 'error') {
        await this.restart();
      }
      return;
    }
    if (!chat.changeAgent(agentId)) {
      this.activeId = this.createChat(agentId).id;
    }
    this.postSnapshot();
    this.statusEmitter.fire(this.currentStatus);
    await this.connect(this.activeChat());
  }

  /** Restarts the active chat's agent; its chats take up their sessions again. */
  async restart(): Promise<void> {
    const chat = this.activeChat();
    try {
      await this.pool.restart(chat.agentId);
    } catch {
      return; // the status says why
    }
    await this.connect(chat);
  }

  /** Starts a new, empty chat with the active chat's agent. */
  async newChat(): Promise<void> {
    await this.restored;
    const agentId =
      this.active && this.offered(this.active.agentId) ? this.active.agentId : this.defaultAgent().id;
    this.activeId = this.createChat(agentId).id;
    this.postSnapshot();
    await this.connect(this.activeChat());
  }

  async switchChat(chatId: string): Promise<void> {
    if (!this.chats.get(chatId)) {
      throw new Error(`Unknown chat ${chatId}`);
    }
    this.activeId = chatId;
    this.postSnapshot();
    this.statusEmitter.fire(this.currentStatus);
    this.workingEmitter.fire(this.activeChat().running);
  }

  async renameChat(chatId: string, title: string): Promise<void> {
    const chat = this.chats.get(chatId);
    if (!chat) {
      throw new Error(`Unknown chat ${chatId}`);
    }
    chat.rename(title);
  }

  /** Deletes a chat and its journal; deleting the active chat moves to the next (or a new) one. */
  async deleteChat(chatId: string): Promise<void> {
    const chat = this.chats.get(chatId);
    if (!chat) {
      throw new Error(`Unknown chat ${chatId}`);
    }
    await chat.cancel();
    await this.chats.delete(chatId);
    if (this.activeId === chatId) {
      const next = this.chatList()[0];
      this.activeId = next ? next.chatId : this.createChat(this.agent.id).id;
      this.postSnapshot();
    } else {
      this.postChats();
    }
  }

  /** The resume banner's action. */
  async startFresh(): Promise<void> {
    const chat = this.activeChat();
    const client = await this.pool.client(chat.agentId);
    await chat.startFresh(client, this.host.cwd());
  }

  /** Sends the last prompt of the active chat again. */
  async retry(): Promise<void> {
    const text = this.activeChat().lastUserText();
    if (text === undefined) {
      throw new Error('There is nothing to retry.');
    }
    await this.send(text);
  }

  async cancel(): Promise<void> {
    await this.active?.cancel();
  }

  /** The agent settings changed: agents no longer offered are stopped, and the view gets the new list. */
  agentsChanged(): void {
    for (const agentId of this.pool.agentIds()) {
      if (!this.offered(agentId)) {
        void this.pool.stop(agentId);
      }
    }
    this.postSnapshot();
  }

  /** The workspace folders changed: the view shows paths relative to the new ones. */
  workspaceFoldersChanged(): void {
    this.postSnapshot();
  }

  private createChat(agentId: string): Conversation {
    return this.chats.create(agentId);
  }

  private onChatChange(chat: Conversation): void {
    this.postChats();
    if (chat.id === this.activeId) {
      this.post({
        type: 'resume_problem',
        chatId: chat.id,
        ...(chat.resumeProblem ? { message: chat.resumeProblem } : {}),
        ...(chat.resumeDetails ? { details: chat.resumeDetails } : {}),
      });
    }
  }

  private onThreadEvent(chat: Conversation, event: ThreadEvent): void {
    this.problems?.observe(chat.id, chat.thread, event);
    if (chat.id !== this.activeId) {
      return; // journaled by the chat itself; the view shows only the active chat
    }
    this.batcher.push(event);
    // A turn's start and end are what the composer waits for: do not hold them back.
    if (event.type === 'turn_started' || event.type === 'turn_ended') {
      this.batcher.flush();
      this.workingEmitter.fire(event.type === 'turn_started');
    }
  }

  private get active(): Conversation | undefined {
    return this.chats.get(this.activeId);
  }

  private activeChat(): Conversation {
    const chat = this.active;
    if (!chat) {
      throw new Error('No chat is open.');
    }
    return chat;
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

  private postSnapshot(): void {
    this.batcher.clear();
    this.post({ type: 'snapshot', view: this.viewState() });
    const damage = this.chats.damageNotice(this.activeId);
    if (damage) {
      this.post({
        type: 'thread_events',
        chatId: this.activeId,
        events: [{ type: 'notice', notice: damage }],
      });
    }
    this.terminals.resend();
  }

  private postChats(): void {
    this.post({ type: 'chats', chats: this.chatList(), activeChatId: this.activeId });
  }

  private post(message: HostMessage): void {
    this.views.post(message);
  }

  /** Writes every journal and stops every agent (deactivation). */
  async shutdown(): Promise<void> {
    await this.chats.flush();
    await this.pool.stopAll();
  }

  dispose(): void {
    void this.shutdown();
    this.batcher.dispose();
    this.problems?.dispose();
    this.terminals.dispose();
    this.poolSubscription.dispose();
    this.reviewSubscription?.dispose();
    this.chats.dispose();
    this.pool.dispose();
    this.statusEmitter.dispose();
    this.workingEmitter.dispose();
  }
}
