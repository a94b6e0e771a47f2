import type { AgentSession } from '../core/session/agentSession';
import { classifyError } from '../core/connection/errors';
import { Emitter } from '../core/util/disposable';
import type { PromptBlock } from '../core/session/promptBlocks';
import type { Turn } from '../core/thread/threadTypes';
import type { AgentPool } from './agentPool';
import type { ChatCollection } from './chatCollection';
import type { Conversation, SessionPlace } from './conversation';
import { signIn, type SignInPort } from './signIn';

/** What connecting chats needs from its surroundings. */
export interface CoordinatorDeps {
  /** The folder sessions run in. */
  readonly cwd: () => string;
  /** The other workspace folders (multi-root), given to agents that take `additionalDirectories`. */
  readonly additionalDirectories?: () => readonly string[];
  readonly signIn?: SignInPort;
  /** The workspace folder of the active editor, if any: a new chat's agent works there (multi-root). */
  readonly activeFolder?: () => string | undefined;
}

/** What the chat's contributions say of a session's place and of a prompt (see ./chatContribution). */
export interface SessionFeatures {
  /** The place a contribution gives the chat (a worktree), or undefined. */
  place(chat: Conversation): SessionPlace | undefined;
  /** A contribution's reason to refuse a prompt now, or undefined. */
  refusal(chat: Conversation): Promise<string | undefined>;
}

/**
 * Connects chats to their agents: starts the agent, takes up or creates the chat's session, sends
 * prompts (keeping the agent busy while a turn runs), and holds a prompt that waited for a sign-in
 * until the user signed in. Failures go to the agent's status, where the view shows them.
 */
export class SessionCoordinator {
  /** Prompts that waited for a sign-in, per chat; sent after `authenticate`. */
  private readonly waitingForSignIn = new Map<string, readonly PromptBlock[]>();
  private readonly signInEmitter = new Emitter<string>();
  /** A chat started or stopped waiting for a sign-in (its id). */
  readonly onDidChangeSignIn = this.signInEmitter.event;

  constructor(
    private readonly pool: AgentPool,
    private readonly chats: ChatCollection,
    private readonly host: CoordinatorDeps,
    private readonly features?: SessionFeatures,
  ) {}

  /** Whether a prompt of the chat waits for the user to sign in. */
  waitsForSignIn(chatId: string): boolean {
    return this.waitingForSignIn.has(chatId);
  }

  /**
   * The chat's session, starting its agent and taking up or creating the session; failures go to the
   * status (the view's card). While it waits, the agent's fatal stderr lines show on the status at once.
   */
  async connect(chat: Conversation): Promise<AgentSession | undefined> {
    try {
      const session = await this.pool.watchSetup(chat.agentId, this.open(chat));
      this.pool.clearReport(chat.agentId);
      return session;
    } catch (error) {
      // Abandoned on purpose (Stop, the chat deleted) is no failure of the agent.
      if (classifyError(error).kind !== 'cancelled') {
        this.pool.report(chat.agentId, error);
      }
      return undefined;
    }
  }

  /**
   * Starts the agent and opens the chat's session. An opening cut short by the agent being stopped under
   * it (restarted for a trust grant, a settings change) is tried once more: only the user's Stop, or the
   * chat going, abandons a message.
   */
  private async open(chat: Conversation): Promise<AgentSession> {
    for (let attempt = 1; ; attempt++) {
      try {
        const client = await this.pool.client(chat.agentId);
        return await chat.ensureSession(client, this.place(chat));
      } catch (error) {
        if (attempt >= 2 || chat.abandoned || classifyError(error).kind !== 'cancelled') {
          throw error;
        }
      }
    }
  }

  /** The chat's session, or an error saying the agent is not connected. */
  async requireSession(chat: Conversation): Promise<AgentSession> {
    const session = await this.connect(chat);
    if (!session) {
      throw new Error('The agent is not connected.');
    }
    return session;
  }

  /** Sends prompt blocks to the chat, connecting first; a prompt refused for want of a sign-in waits for it. */
  async sendPrompt(chat: Conversation, blocks: readonly PromptBlock[]): Promise<void> {
    const refused = this.refusal(chat) ?? (await this.features?.refusal(chat));
    if (refused) {
      throw new Error(refused);
    }
    this.pool.setBusy(chat.agentId, true);
    let sent: Turn | undefined;
    try {
      // Stop while the session opens keeps the message as a cancelled turn (and tells the agent).
      sent = await chat.send(() => this.connect(chat), blocks);
    } finally {
      this.pool.setBusy(
        chat.agentId,
        this.chats.sorted().some((c) => c.agentId === chat.agentId && c.running),
      );
    }
    if (!sent) {
      const status = this.pool.status(chat.agentId);
      if (status.error?.kind === 'auth_required') {
        this.waitingForSignIn.set(chat.id, blocks);
        this.signInEmitter.fire(chat.id);
        return;
      }
      if (status.state === 'error') {
        // The status was just set again (one card, said afresh each time): the view gives the message back.
        return;
      }
      const name = status.agentName ?? this.pool.definition(chat.agentId).label;
      throw new Error(`${name} could not start, so the message was not sent.`);
    }
  }

  /**
   * Why a prompt to the chat would be refused now, before anything is asked or sent: a turn runs, or
   * another window writes it (read-only here, as its composer says).
   */
  refusal(chat: Conversation): string | undefined {
    if (chat.running) {
      return 'A turn is already running; wait for it or press Stop.';
    }
    if (chat.writtenElsewhere) {
      // Worded as the composer words it ("Read-only in this window. <why>").
      return [
        'Read-only in this window, so nothing was sent.',
        chat.saveProblem,
        'Send from the window that has this chat open, or start a new chat here.',
      ]
        .filter((part) => part !== undefined)
        .join(' ');
    }
    return undefined;
  }

  /** Signs in to the chat's agent with `methodId`, then connects and sends the prompt that waited. */
  async authenticate(chat: Conversation, methodId: string): Promise<void> {
    const client = await this.pool.client(chat.agentId);
    const outcome = await signIn(methodId, client, this.pool.definition(chat.agentId), this.host.signIn);
    if (outcome === 'dismissed') {
      return;
    }
    if (outcome === 'restart') {
      await this.pool.restart(chat.agentId);
    }
    const waiting = this.waitingForSignIn.get(chat.id);
    if (this.waitingForSignIn.delete(chat.id)) {
      this.signInEmitter.fire(chat.id);
    }
    const session = await this.connect(chat);
    if (session && waiting) {
      await this.sendPrompt(chat, waiting);
    }
  }

  /** Restarts the chat's agent; its chats take up their sessions again. */
  async restart(chat: Conversation): Promise<void> {
    try {
      await this.pool.restart(chat.agentId);
    } catch {
      return; // the status says why
    }
    await this.connect(chat);
  }

  /** A new session for the chat, given its transcript with the next prompt (a fork's start). */
  async startWithTranscript(chat: Conversation): Promise<void> {
    const client = await this.pool.client(chat.agentId);
    await chat.startWithTranscript(client, this.place(chat));
  }

  /** The folder a new chat starts in when the workspace has several: the active editor's (else none: the first). */
  folderForNewChat(): string | undefined {
    const folders = this.workspaceFolders();
    const active = this.host.activeFolder?.();
    return folders.length > 1 && active !== undefined && folders.includes(active) ? active : undefined;
  }

  /** Every workspace folder (multi-root); empty when the host does not say. */
  workspaceFolders(): readonly string[] {
    return this.host.additionalDirectories?.() ?? [];
  }

  /**
   * Where a session runs: the place a contribution gives the chat (its worktree), else the chat's chosen
   * folder while it is still in the workspace, else the default (the first folder) as `cwd`; the other
   * workspace folders along.
   */
  place(chat?: Conversation): SessionPlace {
    const own = chat && this.features?.place(chat);
    if (own) {
      return own;
    }
    const chosen = chat?.cwd;
    const cwd = chosen !== undefined && this.workspaceFolders().includes(chosen) ? chosen : this.host.cwd();
    const others = (this.host.additionalDirectories?.() ?? []).filter((folder) => folder !== cwd);
    return { cwd, ...(others.length ? { additionalDirectories: others } : {}) };
  }

  /** Forgets what waited for a deleted chat. */
  forget(chatId: string): void {
    this.waitingForSignIn.delete(chatId);
  }

  dispose(): void {
    this.signInEmitter.dispose();
  }
}
