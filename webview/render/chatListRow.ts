import type { ChatActivityState, ChatSummary } from '../../src/protocol';
import { button, el, icon, iconButton } from './dom';
import { relativeTime } from './relativeTime';

/** A row shows its chat, asks to confirm a delete, or holds the field that renames the chat. */
export type ChatRowMode = 'chat' | 'confirming' | 'renaming';

/** What a row asks of its list. The list answers from its state at that moment, not when the row was made. */
export interface ChatRowActions {
  open(chatId: string): void;
  startRename(chatId: string): void;
  /** `title` undefined: the rename was cancelled. */
  finishRename(chatId: string, title: string | undefined): void;
  confirmDelete(chatId: string): void;
  cancelDelete(chatId: string): void;
  delete(chatId: string, onAgent: boolean): void;
}

/** Where the row stands in the list now. */
export interface ChatRowPlace {
  readonly active: boolean;
  /** Shown under the chat it forks. */
  readonly fork: boolean;
  readonly mode: ChatRowMode;
}

/**
 * One chat's row in the chat list. It keeps its elements for the chat's lifetime and updates them in
 * place: the host posts the list often while agents work, and a replaced button loses the click being
 * pressed on it and the keyboard focus. Only a change of mode (user-initiated) rebuilds its content.
 */
export class ChatListRow {
  readonly element = el('li', 'chat-row');
  private readonly open = el('button', 'chat-open');
  private readonly titleText = el('span', 'chat-title');
  private readonly meta = el('span', 'chat-meta');
  private readonly status = el('span', 'chat-status');
  private readonly renameButton: HTMLButtonElement;
  private readonly deleteButton: HTMLButtonElement;
  private confirmText: HTMLElement | undefined;
  private mode: ChatRowMode | undefined;
  private activityClass: string | undefined;
  private statusKey: string | undefined;

  constructor(
    private chat: ChatSummary,
    private readonly actions: ChatRowActions,
  ) {
    this.open.type = 'button';
    this.open.append(this.titleText, this.meta);
    // Each handler reads the row's chat when it runs: the summary it was made with may be old by then.
    this.open.addEventListener('click', () => actions.open(this.chat.chatId));
    this.renameButton = iconButton('edit', '', () => actions.startRename(this.chat.chatId));
    this.deleteButton = iconButton('trash', '', () => actions.confirmDelete(this.chat.chatId));
  }

  get chatId(): string {
    return this.chat.chatId;
  }

  /** The button that opens the chat (it is out of the page while the row confirms or renames). */
  get openButton(): HTMLButtonElement {
    return this.open;
  }

  update(chat: ChatSummary, place: ChatRowPlace): void {
    this.chat = chat;
    this.element.classList.toggle('chat-fork', place.fork);
    if (place.active) {
      this.element.setAttribute('aria-current', 'true');
    } else {
      this.element.removeAttribute('aria-current');
    }
    if (place.mode !== this.mode) {
      this.mode = place.mode;
      this.build();
    }
    this.refresh();
  }

  private build(): void {
    this.element.classList.toggle('confirming', this.mode === 'confirming');
    this.confirmText = undefined;
    if (this.mode === 'renaming') {
      this.element.replaceChildren(this.renameField());
    } else if (this.mode === 'confirming') {
      this.element.replaceChildren(...this.confirmation());
    } else {
      this.element.replaceChildren(this.open, this.status, this.renameButton, this.deleteButton);
    }
  }

  /** Sets only what changed: rewriting text or an icon would restart a spinner and make screen readers speak. */
  private refresh(): void {
    const chat = this.chat;
    setText(this.titleText, chat.title || 'New chat');
    setText(this.meta, `${chat.agentLabel} · ${relativeTime(chat.updatedAt)}`);
    if (this.open.title !== chat.title) {
      this.open.title = chat.title;
    }
    setLabel(this.renameButton, `Rename ${chat.title}`);
    setLabel(this.deleteButton, `Delete ${chat.title}`);
    if (this.confirmText) {
      setText(this.confirmText, `Delete “${chat.title}”?`);
    }
    const activityClass = this.mode === 'chat' && chat.activity ? `chat-${chat.activity}` : undefined;
    if (activityClass !== this.activityClass) {
      if (this.activityClass) {
        this.element.classList.remove(this.activityClass);
      }
      if (activityClass) {
        this.element.classList.add(activityClass);
      }
      this.activityClass = activityClass;
    }
    const activity = chatActivity(chat);
    const statusKey = activity ? `${activity.state}\n${activity.words}` : undefined;
    if (statusKey !== this.statusKey) {
      this.statusKey = statusKey;
      this.status.replaceChildren(...(activity ? [activityIcon(activity.state, activity.words)] : []));
    }
  }

  private confirmation(): HTMLElement[] {
    const chat = this.chat;
    this.confirmText = el('span', 'chat-confirm-text');
    return [
      this.confirmText,
      button('Delete', { onClick: () => this.actions.delete(this.chat.chatId, false) }),
      ...(chat.deletableOnAgent
        ? [
            button('Also on agent', {
              secondary: true,
              title: `Delete it here and ${chat.agentLabel}'s own session too`,
              onClick: () => this.actions.delete(this.chat.chatId, true),
            }),
          ]
        : []),
      button('Cancel', { secondary: true, onClick: () => this.actions.cancelDelete(this.chat.chatId) }),
    ];
  }

  private renameField(): HTMLElement {
    const input = el('input', 'chat-rename');
    input.type = 'text';
    input.value = this.chat.title;
    input.maxLength = 200;
    input.setAttribute('aria-label', 'Chat name');
    const finish = (save: boolean): void => {
      const title = input.value.trim();
      this.actions.finishRename(
        this.chat.chatId,
        save && title !== '' && title !== this.chat.title ? title : undefined,
      );
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

function setText(element: HTMLElement, text: string): void {
  if (element.textContent !== text) {
    element.textContent = text;
  }
}

function setLabel(element: HTMLElement, label: string): void {
  if (element.getAttribute('aria-label') !== label) {
    element.setAttribute('aria-label', label);
    element.title = label;
  }
}

/** What the chat is doing: running, waiting for you, finished unread, failed; with its words. */
function chatActivity(chat: ChatSummary): { state: ChatActivityState; words: string } | undefined {
  const state = chat.activity ?? (chat.running ? 'running' : undefined);
  if (state === undefined) {
    return undefined;
  }
  const words =
    state === 'running'
      ? 'Working'
      : state === 'waiting'
        ? `Waits for you${chat.waitingFor ? `: ${chat.waitingFor}` : ''}`
        : state === 'unread'
          ? 'Finished, not seen yet'
          : 'Stopped with an error, not seen yet';
  return { state, words };
}

const ACTIVITY_ICONS: Record<ChatActivityState, string> = {
  running: 'loading',
  waiting: 'bell-dot',
  unread: 'circle-filled',
  failed: 'error',
};

function activityIcon(state: ChatActivityState, words: string): HTMLElement {
  const element = icon(ACTIVITY_ICONS[state], state === 'running');
  element.classList.add(`chat-activity-${state}`);
  element.setAttribute('title', words);
  element.setAttribute('role', 'img');
  element.setAttribute('aria-label', words);
  return element;
}
