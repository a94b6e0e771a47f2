import type { AgentClient } from '../core/connection/agentClient';
import type { AgentSession } from '../core/session/agentSession';
import { Emitter, type Disposable } from '../core/util/disposable';
import { AgentError, classifyError, describeErrorForLog } from '../core/connection/errors';
import type { SessionParams } from '../core/connection/sessionOpening';
import type { ChatJournal, ChatMeta } from '../core/journal/journal';
import type { Logger } from '../core/ports';
import { keepUnsentPrompt, type PromptBlock } from '../core/session/promptBlocks';
import { Thread, type ThreadLimits } from '../core/thread/thread';
import type { ThreadEvent, Turn } from '../core/thread/threadTypes';
import { ChatRecording } from './chatRecording';
import { DerivedTitle } from './derivedTitle';
import { continueSession, resumeFailureOf } from './sessionTakeUp';
import { withTranscript } from './transcriptMarkdown';

/** What preparing a prompt put on its turn: the checkpoint taken before it, or why none was. */
export type TurnPreparation = Pick<Turn, 'checkpointId' | 'checkpointProblem'>;

/** Why an opening session was abandoned: the empty chat changed its agent or folder meanwhile. */
const SUPERSEDED = new Error('The chat changed its agent or folder while its session was opening.');

/** Where a chat's session runs: the agent's `cwd` and the other workspace roots (multi-root). */
export interface SessionPlace {
  readonly cwd: string;
  readonly additionalDirectories?: readonly string[];
}

export interface ConversationDeps {
  readonly journal: ChatJournal;
  readonly logger: Logger;
  readonly threadLimits?: Partial<ThreadLimits>;
  /** Appends before the journal is rewritten as one snapshot (default 200). */
  readonly compactAfterAppends?: number;
  /** What the chat's contributions put on a prompt's turn (a checkpoint of the workspace before it). */
  readonly beforePrompt?: (chat: Conversation, signal: AbortSignal) => Promise<TurnPreparation>;
}

/** How a new chat starts other than empty: with a transcript and a few meta fields (a fork's). */
export interface ChatStart {
  readonly thread: Thread;
  readonly meta: Pick<ChatMeta, 'forkOf' | 'customTitle' | 'cwd'>;
}

/**
 * One chat: its transcript (journaled as it happens, independent of the agent), the agent it
 * talks to and the ACP session behind it. After a restart the session is taken up again with
 * `session/resume` or `session/load`; when neither works the chat says so once, in one line, and goes
 * on in a new session that is given its transcript with the next prompt — it stays one chat, and it
 * never starts over silently.
 */
export class Conversation implements Disposable {
  readonly thread: Thread;
  private session: AgentSession | undefined;
  private meta: ChatMeta;
  /** The chat's writes to the journal (events in batches, the meta line). */
  private readonly recording: ChatRecording;
  /** The title when the user gave none, worked out once per change of the thread. */
  private readonly derivedTitle: DerivedTitle;
  private connecting: Promise<AgentSession> | undefined;
  private readonly changeEmitter = new Emitter<void>();
  /** Title, running state or the resume problem changed (for the chat list and the banner). */
  readonly onDidChange = this.changeEmitter.event;
  private readonly subscription: Disposable;
  /** Set until a prompt goes out (its session opening, its preparation): the chat counts as running, Stop aborts it. */
  private preparing: AbortController | undefined;
  /** Set while the session is opened (new, resume, load): Stop or deleting the chat abandons it ($/cancel_request). */
  private opening: AbortController | undefined;
  private disposed = false;

  private constructor(
    meta: ChatMeta,
    thread: Thread,
    private readonly deps: ConversationDeps,
  ) {
    this.meta = meta;
    this.thread = thread;
    this.recording = new ChatRecording(
      deps.journal,
      deps.logger,
      {
        id: meta.chatId,
        meta: () => this.meta,
        running: () => this.running,
        snapshot: () => thread.snapshot(),
      },
      deps.compactAfterAppends,
    );
    this.derivedTitle = new DerivedTitle(thread);
    const events = thread.onEvent((event) => this.record(event));
    const saving = deps.journal.onDidChangeSaving((chatId) => {
      if (chatId === this.id) {
        this.changeEmitter.fire();
      }
    });
    this.subscription = { dispose: () => (events.dispose(), saving.dispose()) };
  }

  /** A new chat with `agentId`: empty, or one that starts with the transcript it was given (journaled whole). */
  static create(
    chatId: string,
    agentId: string,
    deps: ConversationDeps,
    start?: ChatStart,
  ): { chat: Conversation; saved: Promise<void> } {
    const now = Date.now();
    deps.journal.created(chatId);
    const meta: ChatMeta = { chatId, agentId, createdAt: now, updatedAt: now, ...start?.meta };
    const chat = new Conversation(meta, start?.thread ?? new Thread(deps.threadLimits), deps);
    return { chat, saved: chat.saveMeta(start !== undefined) };
  }

  /** A chat read back from the journal. */
  static restore(meta: ChatMeta, thread: Thread, deps: ConversationDeps): Conversation {
    return new Conversation(meta, thread, deps);
  }

  get id(): string {
    return this.meta.chatId;
  }

  get agentId(): string {
    return this.meta.agentId;
  }

  get updatedAt(): number {
    return this.meta.updatedAt;
  }

  get createdAt(): number {
    return this.meta.createdAt;
  }

  get running(): boolean {
    return this.preparing !== undefined || this.thread.runningTurn !== undefined;
  }

  /** The user pressed Stop before the message went out, or the chat was deleted: nothing is to be sent. */
  get abandoned(): boolean {
    return this.preparing?.signal.aborted === true || this.disposed;
  }

  get title(): string {
    return this.meta.customTitle || this.derivedTitle.get();
  }

  rename(title: string): void {
    const { customTitle: _dropped, ...rest } = this.meta;
    const trimmed = title.trim();
    this.meta = trimmed ? { ...rest, customTitle: trimmed } : rest;
    this.touch();
  }

  /** An empty chat may change agent or folder (`cwd`; its unused session goes); one with a transcript keeps both. */
  changeAgent(agentId: string, cwd = this.meta.cwd): boolean {
    if (this.thread.snapshot().entries.length > 0) {
      return false;
    }
    // Nothing was said in the session yet: let it go with the old agent. One still opening is for the old
    // agent or place (a real agent takes seconds): abandoned, so the next prompt opens its own.
    this.opening?.abort(SUPERSEDED);
    this.connecting = undefined;
    this.session?.dispose();
    this.session = undefined;
    const { acpSessionId: _dropped, ...rest } = this.meta;
    this.meta = { ...rest, agentId, ...(cwd === undefined ? {} : { cwd }) };
    void this.saveMeta();
    return true;
  }

  /**
   * The live session on `client`: the current one, the old one taken up again (resume, else
   * load), or a new one for a chat that never had one or whose old one cannot be taken up (said once
   * in the chat). Rejects when the agent refuses (e.g. sign-in required), fails or does not answer.
   */
  ensureSession(client: AgentClient, place: SessionPlace): Promise<AgentSession> {
    if (this.session && client.session(this.session.id) === this.session) {
      return Promise.resolve(this.session);
    }
    // One attempt at a time: a prompt sent while the view's first connect runs must not open a second session.
    if (!this.connecting) {
      const attempt = this.takeUpSession(client, place).finally(() => {
        if (this.connecting === attempt) {
          this.connecting = undefined;
        }
      });
      this.connecting = attempt;
    }
    return this.connecting;
  }

  /** Why the chat is not being saved (what it holds is retried), while that is so. */
  get saveProblem(): string | undefined {
    const reason = this.deps.journal.savingProblem(this.id);
    return reason === undefined ? undefined : `This chat is not being saved: ${reason}.`;
  }

  /** Another window writes this chat: here it is read-only (the composer says so), while that is so. */
  get writtenElsewhere(): boolean {
    return this.deps.journal.writtenElsewhere(this.id);
  }

  private async takeUpSession(client: AgentClient, place: SessionPlace): Promise<AgentSession> {
    const opening = (this.opening = new AbortController());
    if (this.preparing?.signal.aborted) {
      opening.abort(this.preparing.signal.reason); // Stop came while the agent was starting
    }
    const params = { ...place, thread: this.thread, signal: opening.signal };
    const oldId = this.meta.acpSessionId;
    try {
      const session =
        oldId === undefined
          ? await client.newSession(params)
          : await this.continueOrGoOn(client, oldId, params);
      if (opening.signal.reason === SUPERSEDED) {
        // Answered just as it was abandoned: a session of the agent or folder the chat had before.
        session.dispose();
        throw new AgentError('cancelled', SUPERSEDED.message);
      }
      return this.adopt(session);
    } finally {
      if (this.opening === opening) {
        this.opening = undefined;
      }
    }
  }

  /**
   * The earlier session taken up again; when the agent cannot (it forgot it, it cannot load or resume),
   * the chat says so once in one line and goes on in a new session that gets the transcript.
   */
  private async continueOrGoOn(
    client: AgentClient,
    oldId: string,
    params: SessionParams & { readonly thread: Thread; readonly signal: AbortSignal },
  ): Promise<AgentSession> {
    try {
      return await continueSession(client, oldId, params);
    } catch (error) {
      const failure = resumeFailureOf(error, client.displayName, params.signal.aborted);
      if (!failure) {
        throw classifyError(error);
      }
      this.deps.logger.warn(describeErrorForLog(failure));
      this.thread.notice({
        severity: 'info',
        title: `${failure.message} The chat goes on in a new session that is given the conversation so far.`,
      });
      return this.withTranscriptOwed(await client.newSession(params));
    }
  }

  /** A new session given the transcript with the next prompt (Edit and resend's fork starts this way). */
  async startWithTranscript(client: AgentClient, place: SessionPlace): Promise<AgentSession> {
    return this.adopt(this.withTranscriptOwed(await client.newSession({ ...place, thread: this.thread })));
  }

  /** `session` has not seen the transcript: the next prompt carries it (noted in the journal). */
  private withTranscriptOwed(session: AgentSession): AgentSession {
    if (this.thread.snapshot().entries.length > 0) {
      this.meta = { ...this.meta, transcriptOwed: true };
    }
    return session;
  }

  /**
   * Sends `blocks` on the session `open` gives. Until the prompt goes out (opening the session, preparing
   * the turn) the chat counts as running and Stop abandons that: the message is kept as a cancelled
   * turn, never sent. Resolves undefined when `open` gave no session for another reason.
   */
  async send(
    open: () => Promise<AgentSession | undefined>,
    blocks: readonly PromptBlock[],
  ): Promise<Turn | undefined> {
    const preparing = (this.preparing = new AbortController());
    this.changeEmitter.fire();
    let session: AgentSession | undefined;
    try {
      session = await open();
    } finally {
      if (!session) {
        this.preparing = undefined;
        this.changeEmitter.fire();
      }
    }
    if (session) {
      return this.prompt(session, blocks);
    }
    return preparing.signal.aborted ? keepUnsentPrompt(this.thread, blocks) : undefined;
  }

  async prompt(session: AgentSession, blocks: readonly PromptBlock[]): Promise<Turn> {
    const owed = this.meta.transcriptOwed === true;
    const toSend = owed ? withTranscript(blocks, this.id, this.thread.snapshot()) : blocks;
    if (owed) {
      const { transcriptOwed: _sent, ...rest } = this.meta;
      this.meta = rest;
      void this.saveMeta();
    }
    // Stop may already have been pressed while the session was opened (`send`).
    const preparing = (this.preparing ??= new AbortController());
    let preparation: TurnPreparation = {};
    try {
      preparation = (await this.deps.beforePrompt?.(this, preparing.signal)) ?? {};
    } finally {
      this.preparing = undefined;
    }
    // Stopped before the prompt went out: the message is kept as a cancelled turn, never sent.
    return session.prompt(toSend, preparing.signal.aborted ? {} : preparation, {
      cancelledBeforeSending: preparing.signal.aborted,
    });
  }

  async cancel(): Promise<void> {
    if (this.preparing || this.opening) {
      const stopped = new Error('Stopped before the message was sent.');
      this.preparing?.abort(stopped);
      this.opening?.abort(stopped);
      return;
    }
    await this.session?.cancel();
  }

  /** The session ended with its agent process; the next prompt takes it up again. */
  detach(): void {
    this.session = undefined;
  }

  /** The agent's id for this chat's session, once it had one. */
  get agentSessionId(): string | undefined {
    return this.meta.acpSessionId;
  }

  /** The workspace folder chosen for the chat's session (absent: the first folder). */
  get cwd(): string | undefined {
    return this.meta.cwd;
  }

  /** The chat this one was forked from (Edit and resend), if any. */
  get forkOf(): string | undefined {
    return this.meta.forkOf;
  }

  get currentSession(): AgentSession | undefined {
    return this.session;
  }

  /** Makes `session` this chat's (also one of the agent's sessions opened from its list). */
  adopt(session: AgentSession): AgentSession {
    this.session = session;
    if (this.meta.acpSessionId !== session.id) {
      this.meta = { ...this.meta, acpSessionId: session.id };
      void this.saveMeta();
    }
    return session;
  }

  /** Journals events in batches: at once when a turn starts, ends or a decision is made, else soon after. */
  private record(event: ThreadEvent): void {
    this.derivedTitle.forget();
    const turnBoundary = event.type === 'turn_started' || event.type === 'turn_ended';
    if (turnBoundary) {
      this.touch();
    } else if (event.type === 'state_updated' && event.changed === 'title') {
      this.changeEmitter.fire();
    }
    // A decision on a file (turn_updated) must survive a reload at once.
    this.recording.add(event, turnBoundary || event.type === 'turn_updated');
  }

  /** Writes what is pending to the journal. */
  flush(): Promise<void> {
    return this.recording.flush();
  }

  private touch(): void {
    this.meta = { ...this.meta, updatedAt: Date.now() };
    void this.saveMeta();
    this.changeEmitter.fire();
  }

  /** Saves the meta line; `whole`: the meta and the transcript as one snapshot (a fork's start). */
  private saveMeta(whole = false): Promise<void> {
    return this.recording.saveMeta(whole);
  }

  dispose(): void {
    this.disposed = true;
    this.opening?.abort(new Error('The chat was deleted.'));
    void this.flush();
    this.subscription.dispose();
    this.changeEmitter.dispose();
    this.session?.dispose();
  }
}
