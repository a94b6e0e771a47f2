import type {
  AgentOption,
  AgentStatus,
  AttachmentRef,
  ChatSummary,
  EditReview,
  ProblemsOfferMessage,
  WorktreeInfo,
  WorktreeOffer,
  SessionStateMessage,
  TerminalOutputMessage,
  ThreadEntryMessage,
  ThreadEventMessage,
  ThreadModel,
  TurnMessage,
  ViewState,
  Elicitation,
  CurrentFile,
} from '../src/protocol';
import { applyThreadEvent, entryOf, threadModelOf, turnOf } from '../src/protocol';
import { nextTerminalState, type TerminalState } from './terminalText';
import { WorkspacePaths } from './workspacePaths';

/** What changed in the store, so the view updates only that. */
export interface StoreChanges {
  /** A snapshot replaced everything. */
  reset: boolean;
  /** Agents, the selected agent or the agent status. */
  view: boolean;
  /** The chat list, the resume problem, edit reviews or the composer's attachments. */
  chats: boolean;
  /** Entries added, in order. */
  readonly added: string[];
  /** Entries whose content changed (replaced, or appended to right after being added or replaced). */
  readonly changed: Set<string>;
  /**
   * Text appended to entries that were otherwise unchanged since the last render, as the deltas
   * arrived: the view appends them instead of looking at the whole text again.
   */
  readonly appended: Map<string, string[]>;
  readonly turns: Set<string>;
  readonly state: Set<keyof SessionStateMessage>;
  readonly notices: { severity: 'info' | 'warning' | 'error'; title: string; description?: string }[];
  readonly terminals: Set<string>;
}

export function noChanges(): StoreChanges {
  return {
    reset: false,
    view: false,
    chats: false,
    added: [],
    changed: new Set(),
    appended: new Map(),
    turns: new Set(),
    state: new Set(),
    notices: [],
    terminals: new Set(),
  };
}

/**
 * The webview's copy of the chat: applies the snapshot and then the thread events through the
 * same `applyThreadEvent` the core Thread uses, and records from what each event changed what
 * the next render has to look at.
 */
export class ChatStore {
  agents: readonly AgentOption[] = [];
  selectedAgentId: string | undefined;
  status: AgentStatus = { state: 'idle' };
  chatId: string | undefined;
  /** Every chat, most recently used first. */
  chats: readonly ChatSummary[] = [];
  /** Why the active chat is not being saved, while that is so. */
  saveProblem: string | undefined;
  /** Another window writes the active chat: turns typed here would not be saved. */
  readOnly = false;
  /** Files waiting on the composer for the next message. */
  attachments: readonly AttachmentRef[] = [];
  /** The active editor's file, offered on the composer (window-wide). */
  currentFile: CurrentFile | undefined;
  /** File writes waiting for the user's Keep or Undo. */
  editReviews: readonly EditReview[] = [];
  /** Shows paths relative to the workspace folders the host reported. */
  workspacePaths = new WorkspacePaths();
  /** The workspace folders in their order (multi-root), and the one chosen for the active chat's agent. */
  workspaceFolders: readonly string[] = [];
  chatCwd: string | undefined;
  /** "Fix N new problems" after the active chat's last turn, when it left some. */
  problemsOffer: ProblemsOfferMessage | undefined;
  /** The chat's own worktree, and for an empty chat whether it can start in one. */
  worktree: WorktreeInfo | undefined;
  worktreeOffer: WorktreeOffer | undefined;
  /** The agent's questions waiting in the active chat, oldest first. */
  elicitations: readonly Elicitation[] = [];
  private thread: ThreadModel = threadModelOf();
  private readonly terminalOutputs = new Map<string, TerminalState>();
  private changes = noChanges();
  /** Entries added or replaced since the last render: the view will read their whole text anyway. */
  private wholeSinceRender = new Set<string>();

  get entries(): readonly ThreadEntryMessage[] {
    return this.thread.entries;
  }

  get turns(): readonly TurnMessage[] {
    return this.thread.turns;
  }

  get state(): SessionStateMessage {
    return this.thread.state;
  }

  entry(id: string): ThreadEntryMessage | undefined {
    return entryOf(this.thread, id);
  }

  turn(id: string): TurnMessage | undefined {
    return turnOf(this.thread, id);
  }

  terminal(terminalId: string): TerminalState | undefined {
    return this.terminalOutputs.get(terminalId);
  }

  /** The last turn, when it is still running. */
  get runningTurn(): TurnMessage | undefined {
    const last = this.thread.turns.at(-1);
    return last?.status === 'running' ? last : undefined;
  }

  get selectedAgent(): AgentOption | undefined {
    return this.agents.find((agent) => agent.id === this.selectedAgentId) ?? this.agents[0];
  }

  /** The agent's name as the user knows it. */
  get agentName(): string {
    return this.status.agentName ?? this.selectedAgent?.label ?? 'the agent';
  }

  /** Takes what changed since the last call. */
  takeChanges(): StoreChanges {
    const changes = this.changes;
    this.changes = noChanges();
    this.wholeSinceRender = new Set();
    return changes;
  }

  applySnapshot(view: ViewState): void {
    this.agents = view.agents;
    this.selectedAgentId = view.selectedAgentId;
    this.status = view.status;
    this.chatId = view.chat?.chatId;
    this.saveProblem = view.chat?.saveProblem;
    this.readOnly = view.chat?.readOnly === true;
    this.chats = view.chats ?? [];
    this.attachments = view.attachments ?? [];
    this.currentFile = view.currentFile;
    this.editReviews = view.editReviews ?? [];
    this.workspaceFolders = view.workspaceFolders ?? [];
    this.chatCwd = view.chat?.cwd;
    this.problemsOffer = view.problemsOffer;
    this.worktree = view.worktree;
    this.pathsFollowPlace();
    this.worktreeOffer = view.worktreeOffer;
    this.elicitations = view.elicitations ?? [];
    this.thread = threadModelOf(view.chat?.thread);
    // Terminal output is kept: terminals outlive a re-sent snapshot of the same chat.
    this.changes = noChanges();
    this.changes.reset = true;
    this.wholeSinceRender = new Set();
  }

  setStatus(status: AgentStatus): void {
    this.status = status;
    this.changes.view = true;
  }

  setChats(chats: readonly ChatSummary[]): void {
    this.chats = chats;
    this.changes.chats = true;
  }

  /** The "not being saved" notice of a chat; ignored for a chat that is not shown. */
  setSaveProblem(chatId: string, message: string | undefined, readOnly = false): void {
    if (chatId === this.chatId) {
      this.saveProblem = message;
      this.readOnly = readOnly;
      this.changes.chats = true;
    }
  }

  addAttachment(attachment: AttachmentRef): void {
    if (!this.attachments.some((existing) => existing.uri === attachment.uri)) {
      this.attachments = [...this.attachments, attachment];
      this.changes.chats = true;
    }
  }

  setProblemsOffer(chatId: string, offer: ProblemsOfferMessage | undefined): void {
    if (chatId === this.chatId) {
      this.problemsOffer = offer;
      this.changes.chats = true;
    }
  }

  /** The chat's worktree changed (made, counted, busy, gone), or what an empty chat is offered. */
  setWorktree(chatId: string, worktree: WorktreeInfo | undefined, offer: WorktreeOffer | undefined): void {
    if (chatId === this.chatId) {
      this.worktree = worktree;
      this.worktreeOffer = offer;
      this.pathsFollowPlace();
      this.changes.chats = true;
    }
  }

  /** Paths read relative to the workspace's folders and the chat's worktree: made once per change of either, not per path shown. */
  private pathsFollowPlace(): void {
    this.workspacePaths = new WorkspacePaths(this.workspaceFolders, this.worktree?.folder);
  }

  /** A question of a chat appeared; ignored for a chat that is not shown (its snapshot brings it). */
  addElicitation(chatId: string, item: Elicitation): void {
    if (chatId === this.chatId && !this.elicitations.some((known) => known.key === item.key)) {
      this.elicitations = [...this.elicitations, item];
      this.changes.chats = true;
    }
  }

  /** A question of a chat was settled. */
  settleElicitation(chatId: string, key: string): void {
    if (chatId === this.chatId && this.elicitations.some((known) => known.key === key)) {
      this.elicitations = this.elicitations.filter((known) => known.key !== key);
      this.changes.chats = true;
    }
  }

  setEditReviews(reviews: readonly EditReview[]): void {
    this.editReviews = reviews;
    this.changes.chats = true;
  }

  setCurrentFile(file: CurrentFile | undefined): void {
    this.currentFile = file;
    this.changes.chats = true;
  }

  /** The composer's attachments after the user removed one or sent them. */
  setAttachments(attachments: readonly AttachmentRef[]): void {
    this.attachments = attachments;
    this.changes.chats = true;
  }

  /** The active chat's line in the chat list. */
  get activeChat(): ChatSummary | undefined {
    return this.chats.find((chat) => chat.chatId === this.chatId);
  }

  setTerminal(terminal: TerminalOutputMessage): void {
    const previous = this.terminalOutputs.get(terminal.terminalId);
    this.terminalOutputs.set(terminal.terminalId, nextTerminalState(previous, terminal));
    this.changes.terminals.add(terminal.terminalId);
  }

  /** Applies a batch; returns false when it belongs to another chat (and is ignored). */
  applyEvents(chatId: string, events: readonly ThreadEventMessage[]): boolean {
    if (chatId !== this.chatId) {
      return false;
    }
    for (const event of events) {
      this.applyEvent(event);
    }
    return true;
  }

  private applyEvent(event: ThreadEventMessage): void {
    const change = applyThreadEvent(this.thread, event);
    switch (change.type) {
      case 'rebuilt':
        if (event.type === 'text_appended') {
          // The host never sends that: its entry_added went missing. The text is shown, not lost.
          console.warn(`ACP chat: text for unknown message ${change.entry.id}, shown as a new message`);
        }
        this.entryReplacedWhole(change.entry.id);
        this.changes.added.push(change.entry.id);
        return;
      case 'added':
        this.entryReplacedWhole(change.entry.id);
        this.changes.added.push(change.entry.id);
        return;
      case 'replaced':
        this.entryReplacedWhole(change.entry.id);
        this.changes.changed.add(change.entry.id);
        return;
      case 'appended': {
        const id = change.entry.id;
        if (this.changes.reset || this.wholeSinceRender.has(id)) {
          this.changes.changed.add(id);
        } else {
          const deltas = this.changes.appended.get(id);
          if (deltas) {
            deltas.push(change.text);
          } else {
            this.changes.appended.set(id, [change.text]);
          }
        }
        return;
      }
      case 'state':
        this.changes.state.add(change.changed);
        return;
      case 'notice':
        this.changes.notices.push(change.notice);
        return;
      case 'turn':
        this.changes.turns.add(change.turn.id);
        return;
      case 'ignored':
        console.warn(`ACP chat: ${change.reason}`);
        return;
      default: {
        const never: never = change;
        console.warn('ACP chat: unknown thread change', never);
      }
    }
  }

  /** The view will read the entry's whole text: deltas queued for it are moot. */
  private entryReplacedWhole(id: string): void {
    this.wholeSinceRender.add(id);
    this.changes.appended.delete(id);
  }
}
