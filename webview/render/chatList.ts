import type { AgentSessionGroup, ChatSummary, ViewMessage } from '../../src/protocol';
import { AgentSessionsView } from './agentSessions/agentSessionsView';
import { button, el, icon, iconButton } from './dom';
import { relativeTime } from './relativeTime';

/**
 * The list of chats, opened from the view's title (Show Chats): switch to a chat, rename it in place,
 * delete it (after an inline confirmation — webviews have no confirm dialog). Escape or a click outside
 * closes it, and focus goes back to where it was before it opened (else to the message box).
 */
export class ChatList {
  readonly element: HTMLElement;
  private readonly list = el('ul', 'chat-list-items');
  private chats: readonly ChatSummary[] = [];
  private activeChatId: string | undefined;
  private editing: string | undefined;
  private confirming: string | undefined;
  /** What had focus when the list opened, to give it back on close. */
  private before: HTMLElement | undefined;
  private readonly agentSessions: AgentSessionsView;

  constructor(
    private readonly post: (message: ViewMessage) => boolean,
    private readonly focusHome: () => void,
  ) {
    this.agentSessions = new AgentSessionsView(post, () => this.close());
    this.element = el(
      'div',
      'chat-list',
      el('div', 'chat-list-title', 'Chats'),
      this.list,
      this.agentSessions.element,
    );
    this.element.id = 'chat-list';
    this.element.setAttribute('role', 'dialog');
    this.element.tabIndex = -1;
    this.element.setAttribute('aria-label', 'Chats');
    this.element.hidden = true;
    // On the document: after a delete the focused row is gone and focus is on the body.
    document.addEventListener('keydown', (event) => {
      if (
        this.isOpen &&
        event.key === 'Escape' &&
        this.editing === undefined &&
        this.confirming === undefined
      ) {
        event.preventDefault();
        this.close();
      }
    });
    document.addEventListener('mousedown', (event) => {
      const target = event.target instanceof Node ? event.target : null;
      if (this.isOpen && target && !this.element.contains(target)) {
        this.close(false);
      }
    });
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  toggle(): void {
    if (this.isOpen) {
      this.close();
      return;
    }
    const active = document.activeElement;
    this.before = active instanceof HTMLElement && active !== document.body ? active : undefined;
    this.element.hidden = false;
    this.render();
    this.agentSessions.refresh();
    // The current chat's row, else the list itself (no chats yet): the keyboard is in the list at once.
    (
      this.list.querySelector<HTMLElement>('[aria-current="true"] .chat-open, .chat-open') ?? this.element
    ).focus();
  }

  close(restoreFocus = true): void {
    this.element.hidden = true;
    this.editing = undefined;
    this.confirming = undefined;
    const before = this.before;
    this.before = undefined;
    if (restoreFocus) {
      if (before?.isConnected) {
        before.focus();
      } else {
        this.focusHome();
      }
    }
  }

  /** A page of the agents' own sessions came. */
  applyAgentSessions(groups: readonly AgentSessionGroup[]): void {
    this.agentSessions.apply(groups);
  }

  update(chats: readonly ChatSummary[], activeChatId: string | undefined): void {
    this.chats = chats;
    this.agentSessions.setChats(chats);
    this.activeChatId = activeChatId;
    if (this.isOpen && this.editing === undefined) {
      const hadFocus =
        this.element.contains(document.activeElement) || document.activeElement === document.body;
      this.render();
      if (hadFocus && !this.element.contains(document.activeElement)) {
        this.list.querySelector<HTMLElement>('.chat-open')?.focus();
      }
    }
  }

  private render(): void {
    if (this.chats.length === 0) {
      this.list.replaceChildren(el('li', 'chat-list-empty', 'No chats yet.'));
      return;
    }
    this.list.replaceChildren(...forksUnderOrigins(this.chats).map((chat) => this.row(chat)));
  }

  private row(chat: ChatSummary): HTMLElement {
    const row = el(
      'li',
      chat.forkOf && this.chats.some((c) => c.chatId === chat.forkOf) ? 'chat-row chat-fork' : 'chat-row',
    );
    const active = chat.chatId === this.activeChatId;
    if (active) {
      row.setAttribute('aria-current', 'true');
    }
    if (this.editing === chat.chatId) {
      row.append(this.renameField(chat));
      return row;
    }
    if (this.confirming === chat.chatId) {
      row.classList.add('confirming');
      row.append(
        el('span', 'chat-confirm-text', `Delete “${chat.title}”?`),
        button('Delete', {
          onClick: () => {
            this.confirming = undefined;
            this.post({ type: 'delete_chat', chatId: chat.chatId });
          },
        }),
        ...(chat.deletableOnAgent
          ? [
              button('Also on agent', {
                secondary: true,
                title: `Delete it here and ${chat.agentLabel}'s own session too`,
                onClick: () => {
                  this.confirming = undefined;
                  this.post({ type: 'delete_chat', chatId: chat.chatId, onAgent: true });
                },
              }),
            ]
          : []),
        button('Cancel', { secondary: true, onClick: () => this.rerender(undefined) }),
      );
      return row;
    }
    const open = el(
      'button',
      'chat-open',
      el('span', 'chat-title', chat.title || 'New chat'),
      el('span', 'chat-meta', `${chat.agentLabel} · ${relativeTime(chat.updatedAt)}`),
    );
    open.type = 'button';
    open.title = chat.title;
    open.addEventListener('click', () => {
      this.close();
      if (!active) {
        this.post({ type: 'switch_chat', chatId: chat.chatId });
      }
    });
    const status = activityIcon(chat);
    if (chat.activity) {
      row.classList.add(`chat-${chat.activity}`);
    }
    row.append(
      open,
      el('span', 'chat-status', status),
      iconButton('edit', `Rename ${chat.title}`, () => {
        this.editing = chat.chatId;
        this.render();
      }),
      iconButton('trash', `Delete ${chat.title}`, () => this.rerender(chat.chatId)),
    );
    return row;
  }

  private rerender(confirming: string | undefined): void {
    this.confirming = confirming;
    this.render();
    const focus = confirming
      ? this.list.querySelector<HTMLElement>('.confirming vscode-button')
      : this.list.querySelector<HTMLElement>('.chat-open');
    focus?.focus();
  }

  private renameField(chat: ChatSummary): HTMLElement {
    const input = el('input', 'chat-rename');
    input.type = 'text';
    input.value = chat.title;
    input.maxLength = 200;
    input.setAttribute('aria-label', 'Chat name');
    const finish = (save: boolean): void => {
      if (this.editing !== chat.chatId) {
        return;
      }
      this.editing = undefined;
      const title = input.value.trim();
      if (save && title !== '' && title !== chat.title) {
        this.post({ type: 'rename_chat', chatId: chat.chatId, title });
      }
      this.render();
      this.list.querySelector<HTMLElement>('.chat-open')?.focus();
    };
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.isComposing) {
        event.preventDefault();
        finish(true);
      } else if (event.key === 'Escape') {
        event.preventDefault();
        finish(false);
      }
    });
    input.addEventListener('blur', () => finish(true));
    queueMicrotask(() => {
      input.focus();
      input.select();
    });
    return input;
  }
}

/** The chats in their order, but each fork (Edit and resend) right under the chat it forks, newest fork first. */
export function forksUnderOrigins(chats: readonly ChatSummary[]): ChatSummary[] {
  const ids = new Set(chats.map((chat) => chat.chatId));
  const forks = new Map<string, ChatSummary[]>();
  for (const chat of chats) {
    if (chat.forkOf !== undefined && ids.has(chat.forkOf) && chat.forkOf !== chat.chatId) {
      forks.set(chat.forkOf, [...(forks.get(chat.forkOf) ?? []), chat]);
    }
  }
  const ordered: ChatSummary[] = [];
  const placed = new Set<string>();
  const place = (chat: ChatSummary): void => {
    if (placed.has(chat.chatId)) {
      return;
    }
    placed.add(chat.chatId);
    ordered.push(chat);
    for (const fork of forks.get(chat.chatId) ?? []) {
      place(fork);
    }
  };
  for (const chat of chats) {
    if (chat.forkOf === undefined || !ids.has(chat.forkOf)) {
      place(chat);
    }
  }
  // A cycle of forks (a damaged journal) has no root: its chats still show, in their order.
  for (const chat of chats) {
    place(chat);
  }
  return ordered;
}

/** What the chat is doing, as an icon with its words: running, waiting for you, finished unread, failed. */
function activityIcon(chat: ChatSummary): HTMLElement | null {
  const state = chat.activity ?? (chat.running ? 'running' : undefined);
  if (state === undefined) {
    return null;
  }
  const [name, words] =
    state === 'running'
      ? (['loading', 'Working'] as const)
      : state === 'waiting'
        ? (['bell-dot', `Waits for you${chat.waitingFor ? `: ${chat.waitingFor}` : ''}`] as const)
        : state === 'unread'
          ? (['circle-filled', 'Finished, not seen yet'] as const)
          : (['error', 'Stopped with an error, not seen yet'] as const);
  const element = icon(name, state === 'running');
  element.classList.add(`chat-activity-${state}`);
  element.setAttribute('title', words);
  element.setAttribute('role', 'img');
  element.setAttribute('aria-label', words);
  return element;
}
