import type { AgentSessionGroup, ChatSummary, ViewMessage } from '../../src/protocol';
import { AgentSessionsView } from './agentSessions/agentSessionsView';
import { ChatListRow, type ChatRowActions } from './chatListRow';
import { el } from './dom';

/**
 * The list of chats, opened from the view's title (Show Chats): switch to a chat, rename it in place,
 * delete it (after an inline confirmation — webviews have no confirm dialog). Escape or a click outside
 * closes it, and focus goes back to where it was before it opened (else to the message box).
 */
export class ChatList {
  readonly element: HTMLElement;
  private readonly list = el('ul', 'chat-list-items');
  private chats: readonly ChatSummary[] = [];
  /** Each chat's row, kept across updates. */
  private readonly rows = new Map<string, ChatListRow>();
  private activeChatId: string | undefined;
  private editing: string | undefined;
  private confirming: string | undefined;
  /** What had focus when the list opened, to give it back on close. */
  private before: HTMLElement | undefined;
  private readonly agentSessions: AgentSessionsView;
  /** A mouse button is down on a row: the host's updates wait for its release (see `holdWhilePressed`). */
  private pressed = false;
  private updateWaiting = false;

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
    this.holdWhilePressed();
  }

  /**
   * An update that moved the pressed row (its own chat went to the top) would lose the click being made
   * on it: while a button is down in the list, updates wait, and come once the click is done.
   */
  private holdWhilePressed(): void {
    this.list.addEventListener('pointerdown', () => (this.pressed = true));
    const release = (): void => {
      if (!this.pressed) {
        return;
      }
      this.pressed = false;
      // A task later: after the click this release makes.
      setTimeout(() => {
        if (this.updateWaiting) {
          this.updateWaiting = false;
          this.showUpdate();
        }
      }, 0);
    };
    document.addEventListener('pointerup', release, true);
    document.addEventListener('pointercancel', release, true);
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
    if (this.pressed) {
      this.updateWaiting = true;
    } else {
      this.showUpdate();
    }
  }

  /** The rows brought up to date while the list is open (not while a chat is being renamed). */
  private showUpdate(): void {
    if (this.isOpen && this.editing === undefined) {
      const focused = document.activeElement;
      const hadFocus = this.element.contains(focused) || focused === document.body;
      this.render();
      if (focused instanceof HTMLElement && focused !== document.body && focused.isConnected) {
        if (document.activeElement !== focused) {
          focused.focus(); // its row moved, which takes the focus away
        }
      } else if (hadFocus && !this.element.contains(document.activeElement)) {
        this.list.querySelector<HTMLElement>('.chat-open')?.focus(); // its chat is gone
      }
    }
  }

  /**
   * Brings the rows up to date with the chats, keeping each chat's row: a row is moved only when its
   * place changed, since a moved or replaced button loses the click being pressed on it.
   */
  private render(): void {
    const ordered = forksUnderOrigins(this.chats);
    const ids = new Set(ordered.map((chat) => chat.chatId));
    for (const [chatId, row] of this.rows) {
      if (!ids.has(chatId)) {
        row.element.remove();
        this.rows.delete(chatId);
      }
    }
    if (ordered.length === 0) {
      this.list.replaceChildren(el('li', 'chat-list-empty', 'No chats yet.'));
      return;
    }
    this.list.querySelector(':scope > .chat-list-empty')?.remove();
    const rows = ordered.map((chat) => {
      const row = this.rows.get(chat.chatId) ?? new ChatListRow(chat, this.actions);
      this.rows.set(chat.chatId, row);
      row.update(chat, {
        active: chat.chatId === this.activeChatId,
        fork: chat.forkOf !== undefined && ids.has(chat.forkOf),
        mode:
          this.editing === chat.chatId ? 'renaming' : this.confirming === chat.chatId ? 'confirming' : 'chat',
      });
      return row.element;
    });
    placeInOrder(this.list, rows);
  }

  private readonly actions: ChatRowActions = {
    open: (chatId) => {
      const active = chatId === this.activeChatId; // now, not when the row was made
      this.close();
      if (!active) {
        this.post({ type: 'switch_chat', chatId });
      }
    },
    startRename: (chatId) => {
      this.editing = chatId;
      this.confirming = undefined;
      this.render();
    },
    finishRename: (chatId, title) => {
      if (this.editing !== chatId) {
        return; // the field's blur after Enter or Escape already finished it
      }
      this.editing = undefined;
      if (title !== undefined) {
        this.post({ type: 'rename_chat', chatId, title });
      }
      this.render();
      this.focusRow(chatId);
    },
    confirmDelete: (chatId) => {
      this.confirming = chatId;
      this.render();
      this.list.querySelector<HTMLElement>('.confirming vscode-button')?.focus();
    },
    cancelDelete: (chatId) => {
      this.confirming = undefined;
      this.render();
      this.focusRow(chatId);
    },
    delete: (chatId, onAgent) => {
      this.confirming = undefined;
      this.post({ type: 'delete_chat', chatId, ...(onAgent ? { onAgent: true } : {}) });
    },
  };

  /** Focus on the chat's own row, else on the first one. */
  private focusRow(chatId: string): void {
    const open = this.rows.get(chatId)?.openButton;
    (open?.isConnected ? open : this.list.querySelector<HTMLElement>('.chat-open'))?.focus();
  }
}

/**
 * Makes `list`'s children `rows`, in that order, moving as few as it can. Where the next child is not
 * the wanted row: a child whose successor is the wanted row has moved down — it is passed over and put
 * in its place when its turn comes; else the wanted row moved up and goes here. One chat moving either
 * way moves only its row.
 */
function placeInOrder(list: HTMLElement, rows: readonly HTMLElement[]): void {
  let next = list.firstElementChild;
  for (const row of rows) {
    if (next !== null && next !== row && next.nextElementSibling === row) {
      next = row;
    }
    if (next === row) {
      next = row.nextElementSibling;
    } else {
      list.insertBefore(row, next);
    }
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
