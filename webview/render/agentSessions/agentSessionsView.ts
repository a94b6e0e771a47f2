import {
  MAX_AGENT_SESSIONS,
  type AgentSession,
  type AgentSessionGroup,
  type ChatSummary,
  type ViewMessage,
} from '../../../src/protocol';
import { relativeTime } from '../relativeTime';
import { el } from '../dom';

interface Group {
  readonly agentLabel: string;
  sessions: AgentSession[];
  nextCursor: string | undefined;
  error: string | undefined;
  /** A "More" was pressed and its page has not come yet. */
  loading: boolean;
}

/**
 * "Agent sessions" in the chat list: per agent that lists its sessions (`session/list`), the sessions it
 * has — title, folder, last change — a page at a time ("More"). A row opens the session as a chat (ours,
 * when we already have one on it). Asked for each time the chat list opens, never while it stays open.
 */
export class AgentSessionsView {
  readonly element = el('section', 'agent-sessions');
  private readonly groups = new Map<string, Group>();
  private chats: readonly ChatSummary[] = [];

  constructor(
    private readonly post: (message: ViewMessage) => boolean,
    /** The chat list closes once a session is being opened. */
    private readonly opened: () => void,
  ) {
    this.element.setAttribute('aria-label', 'Agent sessions');
    this.element.hidden = true;
  }

  /** The chat list opened: ask for every agent's first page again (what is shown stays until it comes). */
  refresh(): void {
    this.post({ type: 'list_agent_sessions' });
  }

  /** Our chats, for the titles of sessions we have a chat on (they follow the agent's title updates). */
  setChats(chats: readonly ChatSummary[]): void {
    this.chats = chats;
    this.render();
  }

  apply(groups: readonly AgentSessionGroup[]): void {
    for (const group of groups) {
      const shown = this.groups.get(group.agentId);
      const sessions =
        group.append && shown
          ? [
              ...shown.sessions,
              ...group.sessions.filter((s) => !shown.sessions.some((o) => o.sessionId === s.sessionId)),
            ]
          : [...group.sessions];
      this.groups.set(group.agentId, {
        agentLabel: group.agentLabel,
        sessions: sessions.slice(0, MAX_AGENT_SESSIONS),
        nextCursor: sessions.length < MAX_AGENT_SESSIONS ? group.nextCursor : undefined,
        error: group.error,
        loading: false,
      });
    }
    this.render();
  }

  private render(): void {
    const groups = [...this.groups.entries()].filter(([, group]) => group.sessions.length > 0 || group.error);
    this.element.hidden = groups.length === 0;
    if (groups.length === 0) {
      this.element.replaceChildren();
      return;
    }
    this.element.replaceChildren(
      el('div', 'chat-list-title', 'Agent sessions'),
      ...groups.map(([agentId, group]) => this.group(agentId, group)),
    );
  }

  private group(agentId: string, group: Group): HTMLElement {
    const list = el('ul', 'chat-list-items');
    list.setAttribute('aria-label', `${group.agentLabel} sessions`);
    for (const session of group.sessions) {
      list.append(this.row(agentId, session));
    }
    if (group.error) {
      list.append(
        el('li', 'chat-list-empty agent-sessions-error', `Could not list the sessions: ${group.error}`),
      );
    }
    if (group.nextCursor) {
      const cursor = group.nextCursor;
      const more = el(
        'button',
        'chat-open agent-sessions-more',
        group.loading ? 'Loading…' : 'More sessions',
      );
      more.type = 'button';
      more.disabled = group.loading;
      more.addEventListener('click', () => {
        group.loading = true;
        this.render();
        this.element.querySelector<HTMLElement>('.agent-sessions-more')?.focus();
        this.post({ type: 'list_agent_sessions', agentId, cursor });
      });
      list.append(el('li', 'chat-row', more));
    }
    return el('div', 'agent-sessions-group', el('div', 'agent-sessions-agent', group.agentLabel), list);
  }

  private row(agentId: string, session: AgentSession): HTMLElement {
    const chat = session.chatId ? this.chats.find((c) => c.chatId === session.chatId) : undefined;
    const title = chat?.title || session.title || 'Untitled session';
    const folder = session.cwd.split(/[\\/]/).filter(Boolean).at(-1) ?? session.cwd;
    const meta = [folder, session.updatedAt === undefined ? '' : relativeTime(session.updatedAt)]
      .filter(Boolean)
      .join(' · ');
    const open = el('button', 'chat-open', el('span', 'chat-title', title), el('span', 'chat-meta', meta));
    open.type = 'button';
    open.title = `${title}\n${session.cwd}${chat ? '\nOpen in this window' : ''}`;
    open.addEventListener('click', () => {
      this.opened();
      this.post({ type: 'open_agent_session', agentId, sessionId: session.sessionId });
    });
    const row = el('li', 'chat-row agent-session', open);
    if (chat) {
      row.dataset.chatId = chat.chatId;
    }
    return row;
  }
}
