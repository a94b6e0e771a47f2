import type { Mention } from '../../../src/protocol';
import { el, icon } from '../dom';
import { mentionIcon } from './mentionIcons';

let nextId = 1;

/** "@" at the start or after a space, then the query up to the caret (no space, no second "@"). */
const MENTION_BEFORE_CARET = /(?:^|\s)@([^\s@]{0,100})$/;

/** Where the "@query" being typed sits in the text. */
export interface MentionToken {
  readonly query: string;
  /** Index of the "@". */
  readonly start: number;
  /** Index after the query (the caret). */
  readonly end: number;
}

/**
 * The @-mention picker, driven by the composer's textarea like the slash menu (an ARIA combobox:
 * focus stays in the textarea). Its entries come from the host: each change of the query posts a
 * `mention_query`, and only the answer to the latest one is shown.
 */
export class MentionMenu {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private readonly id = `mention-menu-${nextId++}`;
  private items: readonly Mention[] = [];
  private active = 0;
  private token: MentionToken | undefined;
  private requestId = 0;
  private askedQuery: string | undefined;
  private readonly otherControls: string | null;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly ask: (query: string, requestId: number) => void,
    private readonly onPick: (mention: Mention, token: MentionToken) => void,
  ) {
    this.list = el('div', 'mention-list');
    this.list.id = this.id;
    this.list.setAttribute('role', 'listbox');
    this.list.setAttribute('aria-label', 'Mention a file, folder, symbol, problem or chat');
    this.element = el('div', 'mention-menu', this.list);
    this.element.hidden = true;
    this.otherControls = input.getAttribute('aria-controls');
    this.list.addEventListener('mousedown', (event) => event.preventDefault());
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** Follows the text: asks the host for the query being typed, or closes when there is none. */
  refresh(): void {
    const token = mentionTokenAt(this.input);
    this.token = token;
    if (token === undefined) {
      this.close();
      return;
    }
    if (token.query !== this.askedQuery) {
      this.askedQuery = token.query;
      this.requestId += 1;
      this.ask(token.query, this.requestId);
      if (!this.isOpen) {
        this.showMessage('Searching…');
      }
    }
  }

  /** The host's answer; an answer to an older query is dropped. */
  results(requestId: number, items: readonly Mention[]): void {
    if (requestId !== this.requestId || this.token === undefined) {
      return;
    }
    const previous = this.items[this.active];
    this.items = items;
    const keep = previous
      ? items.findIndex((item) => item.uri === previous.uri && item.kind === previous.kind)
      : -1;
    this.active = keep >= 0 ? keep : 0;
    if (items.length === 0) {
      this.showMessage(`Nothing matches "${this.token.query}"`);
      return;
    }
    this.render();
  }

  close(): void {
    const wasOpen = this.isOpen;
    this.element.hidden = true;
    this.items = [];
    this.askedQuery = undefined;
    if (!wasOpen) {
      return; // the textarea's combobox state may belong to the slash menu
    }
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
    if (this.otherControls !== null) {
      this.input.setAttribute('aria-controls', this.otherControls);
    }
  }

  /** Handles navigation keys while open; returns true when the key was used. */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.isOpen) {
      return false;
    }
    switch (event.key) {
      case 'ArrowDown':
        this.move(1);
        return true;
      case 'ArrowUp':
        this.move(-1);
        return true;
      case 'Enter':
      case 'Tab': {
        if (event.shiftKey) {
          return false;
        }
        if (this.items.length === 0) {
          // Nothing to pick (no match, or no answer yet): the key does what it does without the menu.
          this.close();
          return false;
        }
        this.pick(this.active);
        return true;
      }
      case 'Escape':
        this.close();
        return true;
      default:
        return false;
    }
  }

  private pick(index: number): void {
    const item = this.items[index];
    const token = this.token;
    if (!item || !token) {
      return;
    }
    this.close();
    this.onPick(item, token);
  }

  private move(delta: number): void {
    const count = this.items.length;
    if (count === 0) {
      return;
    }
    this.active = (this.active + delta + count) % count;
    this.render();
  }

  private showMessage(text: string): void {
    this.items = [];
    this.list.replaceChildren(el('div', 'mention-empty', text));
    this.open();
    this.input.removeAttribute('aria-activedescendant');
  }

  private render(): void {
    this.list.replaceChildren(
      ...this.items.map((item, index) => {
        const option = el(
          'div',
          'mention-item',
          el('span', 'mention-name', icon(mentionIcon(item.kind)), el('span', 'mention-label', item.name)),
          item.detail ? el('span', 'mention-detail', item.detail) : null,
        );
        option.id = `${this.id}-${index}`;
        option.dataset.kind = item.kind ?? 'file';
        option.setAttribute('role', 'option');
        option.setAttribute('aria-selected', String(index === this.active));
        option.addEventListener('click', () => this.pick(index));
        return option;
      }),
    );
    this.open();
    this.input.setAttribute('aria-activedescendant', `${this.id}-${this.active}`);
    this.list.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }

  private open(): void {
    this.element.hidden = false;
    this.input.setAttribute('aria-controls', this.id);
    this.input.setAttribute('aria-expanded', 'true');
  }
}

/** The "@query" that ends at the caret, if any. */
export function mentionTokenAt(input: HTMLTextAreaElement): MentionToken | undefined {
  if (input.selectionStart !== input.selectionEnd) {
    return undefined;
  }
  const caret = input.selectionStart;
  const match = MENTION_BEFORE_CARET.exec(input.value.slice(0, caret));
  if (!match) {
    return undefined;
  }
  const query = match[1] ?? '';
  return { query, start: caret - query.length - 1, end: caret };
}
