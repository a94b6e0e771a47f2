import type {
  AgentOption,
  AgentStatus,
  AttachmentRef,
  ChatSummary,
  EditReview,
  ErrorDetailsMessage,
  ProblemsOfferMessage,
  SessionStateMessage,
  TerminalOutputMessage,
  ThreadEntryMessage,
  ThreadEventMessage,
  TurnMessage,
  ViewState,
} from '../src/protocol';
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

const EMPTY_STATE: SessionStateMessage = { configOptions: [], commands: [], plan: [] };

/**
 * The webview's copy of the chat: applies the snapshot and then the thread events exactly as the
 * core Thread produced them (entries by id, deltas appended, updates replacing, state replaced,
 * turns by id), and records what changed for the next render.
 */
export class ChatStore {
  agents: readonly AgentOption[] = [];
  selectedAgentId: string | undefined;
  status: AgentStatus = { state: 'idle' };
  chatId: string | undefined;
  /** Every chat, most recently used first. */
  chats: readonly ChatSummary[] = [];
  /** Why the active chat's earlier session could not be taken up, if it could not. */
  resumeProblem: string | undefined;
  /** The agent's error behind `resumeProblem`, for the banner's Details. */
  resumeDetails: ErrorDetailsMessage | undefined;
  /** Files waiting on the composer for the next message. */
  attachments: readonly AttachmentRef[] = [];
  /** File writes waiting for the user's Keep or Undo. */
  editReviews: readonly EditReview[] = [];
  /** Shows paths relative to the workspace folders the host reported. */
  workspacePaths = new WorkspacePaths();
  /** "Fix N new problems" after the active chat's last turn, when it left some. */
  problemsOffer: ProblemsOfferMessage | undefined;
  state: SessionStateMessage = EMPTY_STATE;
  private entryList: ThreadEntryMessage[] = [];
  private entryIndex = new Map<string, number>();
  private turnList: TurnMessage[] = [];
  private turnIndex = new Map<string, number>();
  private readonly terminalOutputs = new Map<string, TerminalOutputMessage>();
  private changes = noChanges();
  /** Entries added or replaced since the last render: the view will read their whole text anyway. */
  private wholeSinceRender = new Set<string>();

  get entries(): readonly ThreadEntryMessage[] {
    return this.entryList;
  }

  get turns(): readonly TurnMessage[] {
    return this.turnList;
  }

  entry(id: string): ThreadEntryMessage | undefined {
    const index = this.entryIndex.get(id);
    return index === undefined ? undefined : this.entryList[index];
  }

  turn(id: string): TurnMessage | undefined {
    const index = this.turnIndex.get(id);
    return index === undefined ? undefined : this.turnList[index];
  }

  terminal(terminalId: string): TerminalOutputMessage | undefined {
    return this.terminalOutputs.get(terminalId);
  }

  /** The last turn, when it is still running. */
  get runningTurn(): TurnMessage | undefined {
    const last = this.turnList.at(-1);
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
    this.resumeProblem = view.chat?.resumeProblem;
    this.resumeDetails = view.chat?.resumeDetails;
    this.chats = view.chats ?? [];
    this.attachments = view.attachments ?? [];
    this.editReviews = view.editReviews ?? [];
    this.workspacePaths = new WorkspacePaths(view.workspaceFolders ?? []);
    this.problemsOffer = view.problemsOffer;
    const thread = view.chat?.thread;
    this.entryList = [];
    this.entryIndex = new Map();
    for (const entry of thread?.entries ?? []) {
      this.putEntry(entry);
    }
    this.turnList = [];
    this.turnIndex = new Map();
    for (const turn of thread?.turns ?? []) {
      this.putTurn(turn);
    }
    this.state = thread?.state ?? EMPTY_STATE;
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

  /** The resume banner of a chat; ignored for a chat that is not shown. */
  setResumeProblem(chatId: string, message: string | undefined, details?: ErrorDetailsMessage): void {
    if (chatId === this.chatId) {
      this.resumeProblem = message;
      this.resumeDetails = details;
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

  setEditReviews(reviews: readonly EditReview[]): void {
    this.editReviews = reviews;
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
    const { append, ...message } = terminal;
    const previous = this.terminalOutputs.get(terminal.terminalId);
    // A delta continues the output held; without a base (sent before this view existed) it is all we have.
    this.terminalOutputs.set(
      terminal.terminalId,
      append && previous ? { ...message, output: previous.output + message.output } : message,
    );
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
    switch (event.type) {
      case 'entry_added':
      case 'entry_updated':
        this.wholeSinceRender.add(event.entry.id);
        this.changes.appended.delete(event.entry.id);
        if (this.entryIndex.has(event.entry.id)) {
          this.entryList[this.entryIndex.get(event.entry.id) as number] = event.entry;
          this.changes.changed.add(event.entry.id);
        } else {
          this.putEntry(event.entry);
          this.changes.added.push(event.entry.id);
        }
        return;
      case 'text_appended': {
        const index = this.entryIndex.get(event.entryId);
        const entry = index === undefined ? undefined : this.entryList[index];
        if (index === undefined || !entry || entry.kind === 'tool_call') {
          console.warn(`ACP chat: text for unknown message ${event.entryId}`);
          return;
        }
        // A rope in V8: the whole text is only joined when something reads it.
        this.entryList[index] = { ...entry, text: entry.text + event.text };
        if (this.changes.reset || this.wholeSinceRender.has(entry.id)) {
          this.changes.changed.add(entry.id);
        } else {
          const deltas = this.changes.appended.get(entry.id);
          if (deltas) {
            deltas.push(event.text);
          } else {
            this.changes.appended.set(entry.id, [event.text]);
          }
        }
        return;
      }
      case 'state_updated':
        this.state = event.state;
        this.changes.state.add(event.changed);
        return;
      case 'notice':
        this.changes.notices.push(event.notice);
        return;
      case 'turn_started':
      case 'turn_ended':
      case 'turn_updated':
        this.putTurn(event.turn);
        this.changes.turns.add(event.turn.id);
        return;
      default: {
        const never: never = event;
        console.warn('ACP chat: unknown thread event', never);
      }
    }
  }

  private putEntry(entry: ThreadEntryMessage): void {
    this.entryIndex.set(entry.id, this.entryList.length);
    this.entryList.push(entry);
  }

  private putTurn(turn: TurnMessage): void {
    const index = this.turnIndex.get(turn.id);
    if (index === undefined) {
      this.turnIndex.set(turn.id, this.turnList.length);
      this.turnList.push(turn);
    } else {
      this.turnList[index] = turn;
    }
  }
}
