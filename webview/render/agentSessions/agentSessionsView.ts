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
 * has — title, folder, last change — a page at a time ("More"). A row opens the session as a chat. A
 * session one of our chats is on is not listed: that chat is, above (one conversation, one row). Asked for
 * each time the chat list opens, never while it stays open.
 */
export class AgentSessionsView {
  readonly element = el('section', 'agent-sessions');
  private readonly groups = new Map<string, Group>();
  private chats: readonly ChatSummary[] = [];
  /**
   * Sessions opened from here since their agent's list last came: each is a chat now (listed above), so
   * it leaves this list at once instead of showing twice until the next list marks it.
   */
  private readonly opening = new Set<string>();

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

  /** Our chats: a session one of them is on shows as that chat, above, not a second time here. */
  setChats(chats: readonly ChatSummary[]): void {
    this.chats = chats;
    this.render();
  }

  apply(groups: readonly AgentSessionGroup[]): void {
    // "More sessions" had focus: it goes to the first session of the page that came, not to the page.
    const waiting = this.moreFocused();
    const before = waiting === undefined ? 0 : this.rowsOf(waiting).length;
    for (const group of groups) {
      const shown = this.groups.get(group.agentId);
      if (!group.append) {
        this.forgetOpening(group.agentId);
      }
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
    if (waiting !== undefined) {
      const rows = this.rowsOf(waiting);
      (rows[before] ?? this.moreOf(waiting) ?? rows.at(-1))?.focus();
    }
  }

  private render(): void {
    const groups = [...this.groups.entries()].filter(
      ([agentId, group]) => this.listed(agentId, group).length > 0 || group.error || group.nextCursor,
    );
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

  /** The sessions to list: those no chat of ours is on (that chat is listed above). */
  private listed(agentId: string, group: Group): AgentSession[] {
    return group.sessions.filter(
      (session) =>
        !this.opening.has(openingKey(agentId, session.sessionId)) &&
        (session.chatId === undefined || !this.chats.some((chat) => chat.chatId === session.chatId)),
    );
  }

  private forgetOpening(agentId: string): void {
    for (const key of [...this.opening]) {
      if (key.startsWith(openingKey(agentId, ''))) {
        this.opening.delete(key);
      }
    }
  }

  private group(agentId: string, group: Group): HTMLElement {
    const list = el('ul', 'chat-list-items');
    list.setAttribute('aria-label', `${group.agentLabel} sessions`);
    for (const session of this.listed(agentId, group)) {
      list.append(this.row(agentId, session));
    }
    if (group.error) {
      list.append(
        el('li', 'chat-list-empty agent-sessions-error', `Could not list the sessions: ${group.error}`),
      );
    }
    if (group.nextCursor) {
      list.append(el('li', 'chat-row', this.moreButton(agentId, group, group.nextCursor)));
    }
    const element = el(
      'div',
      'agent-sessions-group',
      el('div', 'agent-sessions-agent', group.agentLabel),
      list,
    );
    element.dataset.agentId = agentId;
    return element;
  }

  private moreButton(agentId: string, group: Group, cursor: string): HTMLElement {
    const more = el('button', 'chat-open agent-sessions-more', group.loading ? 'Loading…' : 'More sessions');
    more.type = 'button';
    more.dataset.agentId = agentId;
    // Not `disabled` while its page comes: a disabled button loses focus, which would fall to the page.
    more.setAttribute('aria-disabled', String(group.loading));
    more.addEventListener('click', () => {
      if (group.loading) {
        return;
      }
      group.loading = true;
      this.render();
      this.moreOf(agentId)?.focus();
      this.post({ type: 'list_agent_sessions', agentId, cursor });
    });
    return more;
  }

  /** The agent whose "More sessions" has focus. */
  private moreFocused(): string | undefined {
    const focused = document.activeElement;
    return focused instanceof HTMLElement && focused.classList.contains('agent-sessions-more')
      ? focused.dataset.agentId
      : undefined;
  }

  private groupElement(agentId: string): HTMLElement | undefined {
    return [...this.element.querySelectorAll<HTMLElement>('.agent-sessions-group')].find(
      (group) => group.dataset.agentId === agentId,
    );
  }

  private rowsOf(agentId: string): HTMLElement[] {
    return [
      ...(this.groupElement(agentId)?.querySelectorAll<HTMLElement>('.agent-session .chat-open') ?? []),
    ];
  }

  private moreOf(agentId: string): HTMLElement | undefined {
    return this.groupElement(agentId)?.querySelector<HTMLElement>('.agent-sessions-more') ?? undefined;
  }

  private row(agentId: string, session: AgentSession): HTMLElement {
    const title = session.title || 'Untitled session';
    const folder = session.cwd.split(/[\\/]/).filter(Boolean).at(-1) ?? session.cwd;
    const meta = [folder, session.updatedAt === undefined ? '' : relativeTime(session.updatedAt)]
      .filter(Boolean)
      .join(' · ');
    const open = el('button', 'chat-open', el('span', 'chat-title', title), el('span', 'chat-meta', meta));
    open.type = 'button';
    open.title = `${title}\n${session.cwd}`;
    open.addEventListener('click', () => {
      this.opened();
      this.opening.add(openingKey(agentId, session.sessionId));
      this.post({ type: 'open_agent_session', agentId, sessionId: session.sessionId });
      this.render();
    });
    return el('li', 'chat-row agent-session', open);
  }
}

function openingKey(agentId: string, sessionId: string): string {
  return `${agentId}\n${sessionId}`;
}
