import type { AgentClient } from '../../../core/connection/agentClient';
import type { AgentSession as LiveSession } from '../../../core/session/agentSession';
import { safeAgentText } from '../../../core/thread/agentText';
import { classifyError, NotSupportedError } from '../../../core/connection/errors';
import { cutText, STATE_BOUNDS } from '../../../core/session/stateBounds';
import type { AgentSession, AgentSessionGroup } from '../../../protocol';
import { MAX_AGENT_SESSIONS, MAX_CURSOR_CHARS } from '../../../protocol';
import type { AgentPool } from '../../../chat/agentPool';
import type { ChatCollection } from '../../../chat/chatCollection';
import type { Conversation } from '../../../chat/conversation';
import type { SessionCoordinator } from '../../../chat/sessionCoordinator';
import type { ViewPresenter } from '../../../chat/viewPresenter';
import type { ViewSlot } from '../../../chat/viewSlot';

export interface AgentSessionsDeps {
  readonly chats: ChatCollection;
  readonly pool: AgentPool;
  readonly sessions: SessionCoordinator;
  readonly presenter: ViewPresenter;
  /** Shows chat `chatId` in `view` (the chat commands' switch). */
  readonly switchChat: (chatId: string, view: ViewSlot) => Promise<void>;
  /** Whether a listed session is one the agent check opened to test a sign-in: never shown. */
  readonly isProbe?: (agentId: string, sessionId: string) => boolean;
}

/** What one agent's listing kept: how many rows, and each row's title and folder (for a chat opened from it). */
interface Listing {
  count: number;
  readonly rows: Map<string, { readonly title: string; readonly cwd: string }>;
}

/**
 * "Agent sessions": the sessions each running agent with `session/list` already has (e.g. started in its
 * own CLI), listed page by page for the chat list, and opened as a chat that loads them (their history
 * shown once: a session that already has our chat switches to that chat instead).
 */
export class AgentSessionsBrowser {
  private readonly listings = new Map<string, Listing>();
  /** Opens under way, by agent and session: a double click opens one chat. */
  private readonly opening = new Map<string, Promise<void>>();

  constructor(private readonly deps: AgentSessionsDeps) {}

  /**
   * Posts to `view` the first page of every running agent that lists its sessions (without `agentId`),
   * or the page at `cursor` of one agent. Agents that are not running are not started for it.
   */
  async list(view: ViewSlot, agentId?: string, cursor?: string): Promise<void> {
    const { pool } = this.deps;
    const ids = agentId === undefined ? pool.agentIds() : [agentId];
    const listed = ids.flatMap((id) => {
      const client = pool.running(id);
      return client?.info.capabilities.sessionCapabilities?.list ? [{ id, client }] : [];
    });
    if (agentId !== undefined && listed.length === 0) {
      throw new Error(`${pool.definition(agentId).label} is not running or cannot list its sessions.`);
    }
    // One message per agent, as each answers: a slow agent does not hold the others back.
    await Promise.all(
      listed.map(async ({ id, client }) =>
        this.deps.presenter.postTo(view, {
          type: 'agent_sessions',
          groups: [await this.page(id, client, cursor)],
        }),
      ),
    );
  }

  /** Opens the agent's session `sessionId` in `view`: our chat on it, else a new chat that loads it. */
  open(view: ViewSlot, agentId: string, sessionId: string): Promise<void> {
    const key = `${agentId}\u0000${sessionId}`;
    let opening = this.opening.get(key);
    if (!opening) {
      opening = this.openOnce(view, agentId, sessionId).finally(() => this.opening.delete(key));
      this.opening.set(key, opening);
    }
    return opening;
  }

  private async openOnce(view: ViewSlot, agentId: string, sessionId: string): Promise<void> {
    const { chats, pool, sessions, switchChat } = this.deps;
    const ours = this.chatOn(agentId, sessionId);
    if (ours) {
      return switchChat(ours.id, view);
    }
    const client = await pool.client(agentId);
    const caps = client.info.capabilities;
    if (!caps.loadSession && !caps.sessionCapabilities?.resume) {
      throw new NotSupportedError(client.info.name, 'Opening its sessions (session/load or session/resume)');
    }
    const chat = chats.create(agentId);
    const listed = this.listings.get(agentId)?.rows.get(sessionId);
    if (listed && sessions.workspaceFolders().includes(listed.cwd)) {
      chat.changeAgent(agentId, listed.cwd); // a session of another workspace folder goes on there
    }
    try {
      const params = { ...sessions.place(chat), thread: chat.thread };
      // Load replays the history into the new chat's empty transcript; resume shows only what comes next.
      const session: LiveSession = caps.loadSession
        ? await client.loadSession(sessionId, params)
        : await client.resumeSession(sessionId, params);
      chat.adopt(session);
    } catch (error) {
      await chats.delete(chat.id);
      throw classifyError(error);
    }
    if (listed?.title && !chat.thread.snapshot().state.title) {
      chat.thread.setState('title', listed.title);
    }
    await switchChat(chat.id, view);
    if (!caps.loadSession) {
      // Resumed without a replay: say why the chat starts empty, rather than look like a new session.
      chat.thread.notice({
        severity: 'info',
        title: `${client.info.name} resumed this session without sending its history: earlier messages are not shown.`,
      });
    }
  }

  private async page(
    agentId: string,
    client: AgentClient,
    cursor: string | undefined,
  ): Promise<AgentSessionGroup> {
    const agentLabel = this.deps.pool.definition(agentId).label;
    const first = cursor === undefined;
    let listing = this.listings.get(agentId);
    if (first || !listing) {
      listing = { count: 0, rows: new Map() };
      this.listings.set(agentId, listing);
    }
    try {
      const response = await client.listSessions(cursor === undefined ? {} : { cursor });
      const room = Math.max(0, MAX_AGENT_SESSIONS - listing.count);
      const sessions = (Array.isArray(response.sessions) ? response.sessions : [])
        .filter(openable)
        .filter((info) => !this.deps.isProbe?.(agentId, info.sessionId))
        .slice(0, room)
        .map((info) => this.row(agentId, info, listing));
      listing.count += sessions.length;
      const next = response.nextCursor;
      const more =
        typeof next === 'string' &&
        next !== '' &&
        next.length <= MAX_CURSOR_CHARS &&
        listing.count < MAX_AGENT_SESSIONS;
      return {
        agentId,
        agentLabel,
        sessions,
        ...(more ? { nextCursor: next } : {}),
        ...(first ? {} : { append: true }),
      };
    } catch (error) {
      const message = safeAgentText(classifyError(error).message, 2_000 - 40);
      return { agentId, agentLabel, sessions: [], error: message, ...(first ? {} : { append: true }) };
    }
  }

  private row(
    agentId: string,
    info: { sessionId: string; cwd: string; title?: unknown; updatedAt?: unknown },
    listing: Listing,
  ): AgentSession {
    // Whatever the agent sent (its types are not checked by the SDK): plain, one line, bounded.
    const title =
      typeof info.title === 'string'
        ? cutText(safeAgentText(info.title).replace(/\s+/g, ' ').trim(), STATE_BOUNDS.titleChars)
        : '';
    const cwd = cutText(safeAgentText(info.cwd), 4_096);
    listing.rows.set(info.sessionId, { title, cwd });
    const updatedAt = typeof info.updatedAt === 'string' ? Date.parse(info.updatedAt) : Number.NaN;
    const chat = this.chatOn(agentId, info.sessionId);
    return {
      sessionId: info.sessionId,
      ...(title ? { title } : {}),
      cwd,
      ...(Number.isFinite(updatedAt) ? { updatedAt } : {}),
      ...(chat ? { chatId: chat.id } : {}),
    };
  }

  /** Our chat with `agentId` on the agent's session `sessionId`, when there is one. */
  private chatOn(agentId: string, sessionId: string): Conversation | undefined {
    return this.deps.chats
      .sorted()
      .find((chat) => chat.agentId === agentId && chat.agentSessionId === sessionId);
  }
}

/** A listed session we can show and open: an id the view takes, a cwd (whatever the agent sent). */
function openable(info: { sessionId: unknown; cwd: unknown }): boolean {
  return (
    typeof info.sessionId === 'string' &&
    info.sessionId.length > 0 &&
    info.sessionId.length <= 500 &&
    typeof info.cwd === 'string'
  );
}
