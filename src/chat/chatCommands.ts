import type { AgentChoice } from './agentChoice';
import type { AgentPool } from './agentPool';
import { DEMO_AGENT_ID } from './agentSettings';
import type { ChatCollection } from './chatCollection';
import type { Conversation } from './conversation';
import type { SessionCoordinator } from './sessionCoordinator';
import type { ViewPresenter } from './viewPresenter';
import type { ViewSlot } from './viewSlot';
import type { ViewSlots } from './viewSlots';

/** What the chat commands act through. */
export interface ChatCommandsDeps {
  readonly chats: ChatCollection;
  readonly pool: AgentPool;
  readonly sessions: SessionCoordinator;
  readonly presenter: ViewPresenter;
  readonly slots: ViewSlots;
  readonly agents: AgentChoice;
  readonly restored: Promise<void>;
  /** A slot now shows another chat (the status bar follows the window's). */
  readonly shown: (view: ViewSlot) => void;
  /** Chats are gone (the features let go of what they held for them). */
  readonly deleted?: (chatIds: readonly string[]) => void;
}

/** The chat of a view; throws when none is open (before the journal is read). */
export function chatOf(chats: ChatCollection, view: ViewSlot): Conversation {
  const chat = chats.get(view.chatId);
  if (!chat) {
    throw new Error('No chat is open.');
  }
  return chat;
}

/**
 * The chats' lifecycle as the user drives it: new, switch, rename, delete, change agent, restart. Each acts on the view (slot) that asked.
 */
export class ChatCommands {
  constructor(private readonly deps: ChatCommandsDeps) {}

  /**
   * The agent settings changed: agents no longer offered are stopped, and the views get the new list. The
   * demo agent stays offered beside real ones, but an empty chat with it in `view` moves on to the default.
   */
  agentsChanged(view: ViewSlot): void {
    const { pool, agents, chats, presenter } = this.deps;
    for (const agentId of pool.agentIds()) {
      if (!agents.isOffered(agentId)) {
        void pool.stop(agentId);
      }
    }
    const chat = chats.get(view.chatId);
    const fallback = agents.defaultAgent();
    if (chat?.agentId === DEMO_AGENT_ID && fallback.id !== DEMO_AGENT_ID && chat.changeAgent(fallback.id)) {
      this.deps.shown(view);
    }
    presenter.snapshot();
  }

  /** Starts a new, empty chat in the view with its chat's agent. */
  async newChat(view: ViewSlot): Promise<void> {
    const { chats, presenter, sessions, agents } = this.deps;
    await this.deps.restored;
    const chat = chats.create(agents.nextTo(chats.get(view.chatId)?.agentId));
    const folder = sessions.folderForNewChat();
    if (folder !== undefined) {
      chat.changeAgent(chat.agentId, folder);
    }
    view.chatId = chat.id;
    presenter.snapshot(view);
    await sessions.connect(chatOf(chats, view));
  }

  async switchChat(chatId: string, view: ViewSlot): Promise<void> {
    if (!this.deps.chats.get(chatId)) {
      throw new Error(`Unknown chat ${chatId}`);
    }
    view.chatId = chatId;
    this.deps.presenter.snapshot(view);
    this.deps.shown(view);
  }

  async renameChat(chatId: string, title: string): Promise<void> {
    const chat = this.deps.chats.get(chatId);
    if (!chat) {
      throw new Error(`Unknown chat ${chatId}`);
    }
    chat.rename(title);
  }

  /** Whether the chat's session can also be deleted on its agent's side (the agent runs and has `session/delete`). */
  deletableOnAgent(chatId: string): boolean {
    const chat = this.deps.chats.get(chatId);
    const client = chat && this.deps.pool.running(chat.agentId);
    return Boolean(chat?.agentSessionId && client?.info.capabilities.sessionCapabilities?.delete);
  }

  /**
   * Deletes a chat and its journal; a view showing it moves to the next (or a new) one. With
   * `onAgent`, the agent deletes its session first (a failure there keeps the chat, and says why).
   */
  async deleteChat(chatId: string, options: { readonly onAgent?: boolean } = {}): Promise<void> {
    const chat = this.deps.chats.get(chatId);
    if (!chat) {
      throw new Error(`Unknown chat ${chatId}`);
    }
    await chat.cancel();
    const sessionId = chat.agentSessionId;
    if (options.onAgent && sessionId) {
      const client = await this.deps.pool.client(chat.agentId);
      chat.detach();
      await client.deleteSession(sessionId);
    }
    // A plain delete leaves the agent its session open (no session/close): an agent that keeps sessions only
    // in memory would lose it, and the user chose to keep it there. Idle agents are stopped anyway.
    await this.deps.chats.delete(chatId);
    this.chatsDeleted([chatId]);
  }

  /** Chats are gone (deleted, or dropped by retention): each view that showed one moves to the next (or a new) chat. */
  chatsDeleted(chatIds: readonly string[]): void {
    const { chats, presenter, sessions, slots, agents } = this.deps;
    const gone = new Set(chatIds);
    for (const chatId of gone) {
      sessions.forget(chatId);
    }
    this.deps.deleted?.(chatIds);
    const moved = [...slots.all()].filter((slot) => gone.has(slot.chatId));
    for (const slot of moved) {
      const next = chats.sorted()[0];
      slot.chatId = next ? next.id : chats.create(agents.defaultAgent().id).id;
    }
    for (const slot of moved) {
      presenter.snapshot(slot);
    }
    presenter.chats();
    if (moved.includes(slots.main)) {
      this.deps.shown(slots.main);
    }
  }

  /** Switches the view to `agentId`: its empty chat changes agent, otherwise a new chat starts with it. */
  async selectAgent(agentId: string, view: ViewSlot): Promise<void> {
    const { chats, pool, presenter, sessions, agents } = this.deps;
    agents.definitionOr(agentId, true);
    const chat = chatOf(chats, view);
    if (chat.agentId === agentId) {
      if (pool.status(agents.definitionOr(agentId).id).state === 'error') {
        await this.restart(view);
      }
      return;
    }
    if (!chat.changeAgent(agentId)) {
      view.chatId = chats.create(agentId).id;
    }
    presenter.snapshot(view);
    this.deps.shown(view);
    await sessions.connect(chatOf(chats, view));
  }

  /** Multi-root: the workspace folder an empty chat's agent works in (its `cwd`); the other folders go along. */
  async setFolder(folder: string, view: ViewSlot): Promise<void> {
    const { chats, presenter, sessions } = this.deps;
    if (!sessions.workspaceFolders().includes(folder)) {
      throw new Error(`${folder} is not a folder of this workspace.`);
    }
    const chat = chatOf(chats, view);
    if (chat.cwd === folder) {
      return;
    }
    if (!chat.changeAgent(chat.agentId, folder)) {
      throw new Error('A chat keeps its folder once it has messages: start a new chat for another folder.');
    }
    presenter.snapshot(view);
    await sessions.connect(chat);
  }

  /** Restarts the view's chat's agent; its chats take up their sessions again. */
  async restart(view: ViewSlot): Promise<void> {
    await this.deps.sessions.restart(chatOf(this.deps.chats, view));
  }

  /**
   * Sign out: the view's chat's agent signs out (`logout`). Its chats keep their transcripts; the
   * next prompt asks for a sign-in again where the agent needs one.
   */
  async signOut(view: ViewSlot): Promise<void> {
    const { chats, pool } = this.deps;
    const chat = chatOf(chats, view);
    const client = await pool.client(chat.agentId);
    await client.logout();
    for (const other of chats.sorted()) {
      if (other.agentId === chat.agentId) {
        other.detach();
      }
    }
  }
}
