import type { ChatSummary, ViewMessage } from '../../src/protocol';
import { relativeTime } from './relativeTime';
import { button, el, icon } from './dom';

export interface EmptyStateInfo {
  readonly agentName: string;
  readonly isDemo: boolean;
  readonly hasCommands: boolean;
  /** Other chats to go back to, most recent first. */
  readonly recentChats: readonly ChatSummary[];
  /** Restricted Mode: the notice above says why; the chat says only what trusting the folder unlocks. */
  readonly restricted?: boolean;
}

const MAX_RECENT = 5;

/**
 * The empty state in a transcript: shown while the chat has nothing, built again only when what it says
 * changes (the recent chats' order and titles, not their times, which move on their own).
 */
export class EmptyStateSlot {
  private shown: { element: HTMLElement; key: string } | undefined;

  constructor(
    private readonly post: (message: ViewMessage) => boolean,
    /** Puts a new empty state first in the transcript. */
    private readonly prepend: (element: HTMLElement) => void,
  ) {}

  get isShown(): boolean {
    return this.shown !== undefined;
  }

  update(isEmpty: boolean, info: EmptyStateInfo): void {
    if (!isEmpty) {
      this.shown?.element.remove();
      this.shown = undefined;
      return;
    }
    const key = JSON.stringify({
      ...info,
      recentChats: info.recentChats.map((chat) => [chat.chatId, chat.title]),
    });
    if (this.shown?.key === key) {
      return;
    }
    const fresh = emptyState(info, this.post);
    for (const child of fresh.children) {
      builtMarkup.set(child, child.outerHTML);
    }
    const shown = this.shown?.element;
    if (shown?.className === fresh.className) {
      keepUnchangedChildren(shown, fresh);
      this.shown = { element: shown, key };
      return;
    }
    if (shown) {
      shown.replaceWith(fresh);
    } else {
      this.prepend(fresh);
    }
    this.shown = { element: fresh, key };
  }

  /** The transcript was emptied: the next update builds it afresh. */
  forget(): void {
    this.shown = undefined;
  }
}

/**
 * Each shown child's markup as it was built: a component adds attributes of its own once connected
 * (and while pressed), which are not a change in what the empty state says.
 */
const builtMarkup = new WeakMap<Element, string>();

/**
 * Makes `shown`'s children those of `fresh`, keeping each shown child whose markup is unchanged: the
 * button under the pointer or holding the focus stays the same element, so a click landing while the
 * empty state is made again (the agent's commands or the chat list arrive as a newcomer clicks Add
 * Agent…) is not lost. The markup names what a child's click acts on (a recent chat's id).
 */
function keepUnchangedChildren(shown: HTMLElement, fresh: HTMLElement): void {
  let at = shown.firstElementChild;
  for (const next of [...fresh.children]) {
    const markup = builtMarkup.get(next);
    let same = at;
    while (same && builtMarkup.get(same) !== markup) {
      same = same.nextElementSibling;
    }
    if (!same) {
      shown.insertBefore(next, at);
      continue;
    }
    while (at && at !== same) {
      const gone: Element = at;
      at = gone.nextElementSibling;
      gone.remove();
    }
    at = same.nextElementSibling;
  }
  while (at) {
    const gone: Element = at;
    at = gone.nextElementSibling;
    gone.remove();
  }
}

/**
 * What an empty chat says, short enough to read at the sidebar's default width without scrolling: with
 * the offline demo, **Add Agent…** right under the title (a new user's first step); then what to ask, the
 * keys for context and commands, that edits wait for an OK, and the recent chats.
 */
export function emptyState(info: EmptyStateInfo, post: (message: ViewMessage) => boolean): HTMLElement {
  if (info.restricted) {
    return restrictedEmptyState();
  }
  const addAgent = button(info.isDemo ? 'Add Agent…' : 'Add another agent…', {
    icon: 'cloud-download',
    secondary: !info.isDemo,
    ariaLabel: info.isDemo
      ? 'Add Agent…: pick one from the ACP Registry'
      : 'Add another agent from the ACP Registry',
    title:
      'Pick an agent (GitHub Copilot, Claude Code, Gemini CLI, Codex, OpenCode, …): it is installed and added for you',
    onClick: () => post({ type: 'add_agent' }),
  });
  addAgent.classList.add('empty-add-agent');
  const demo = info.isDemo
    ? el(
        'p',
        'empty-demo',
        'Scripted replies, offline, no account: type ',
        el('code', '', 'help'),
        '. Add Agent… installs a real one.',
      )
    : null;
  const tips = el(
    'ul',
    'empty-tips',
    el('li', '', icon('comment-discussion'), `Ask ${info.agentName} to explain, fix or build something.`),
    el(
      'li',
      '',
      icon('mention'),
      info.hasCommands ? 'Type @ to add files, / for commands.' : 'Type @ to add files.',
    ),
    el('li', '', icon('shield'), 'Edits and commands wait for your OK.'),
  );
  const recent = info.recentChats.slice(0, MAX_RECENT).map((chat) => {
    const item = el(
      'button',
      'recent-chat',
      icon('comment'),
      el('span', 'chat-title', chat.title || 'New chat'),
      el('span', 'chat-meta', relativeTime(chat.updatedAt)),
    );
    item.type = 'button';
    item.dataset.chatId = chat.chatId;
    item.title = `${chat.title} · ${chat.agentLabel}`;
    item.addEventListener('click', () => post({ type: 'switch_chat', chatId: chat.chatId }));
    return el('li', '', item);
  });
  return el(
    'div',
    'empty-state',
    el('h2', 'empty-title', `Chat with ${info.agentName}`),
    ...(info.isDemo ? [addAgent, demo, tips] : [tips, addAgent]),
    recent.length > 0 ? el('h3', 'recent-title', 'Recent chats') : null,
    recent.length > 0 ? el('ul', 'recent-chats', ...recent) : null,
  );
}

/**
 * In Restricted Mode no agent starts, so tips on what to ask would promise what cannot happen: the
 * empty chat says what trusting the folder unlocks (the notice above has the button).
 */
function restrictedEmptyState(): HTMLElement {
  return el(
    'div',
    'empty-state empty-restricted',
    el('h2', 'empty-title', 'Trusting this folder unlocks'),
    el(
      'ul',
      'empty-tips',
      el('li', '', icon('hubot'), 'Agents start and answer here, the offline demo agent too.'),
      el('li', '', icon('edit'), 'They read and edit files and run commands, with your approval.'),
      el('li', '', icon('settings-gear'), 'The folder’s own agent and MCP server settings apply.'),
    ),
  );
}
