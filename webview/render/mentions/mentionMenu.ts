import type { Mention } from '../../../src/protocol';
import { Combobox } from '../combobox';
import { el, icon } from '../dom';
import { mentionIcon } from './mentionIcons';

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
 * The @-mention picker, driven by the composer's textarea like the slash menu (see `Combobox`). Its
 * entries come from the host: each change of the query posts a `mention_query`, and only the answer
 * to the latest one is shown; no match says so instead of closing.
 */
export class MentionMenu {
  private readonly combobox: Combobox<Mention>;
  private token: MentionToken | undefined;
  private requestId = 0;
  private askedQuery: string | undefined;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly ask: (query: string, requestId: number) => void,
    onPick: (mention: Mention, token: MentionToken) => void,
  ) {
    this.combobox = new Combobox<Mention>({
      input,
      name: 'mention',
      label: 'Mention a file, folder, symbol, problem or chat',
      renderOption: (item) => {
        const option = el(
          'div',
          'mention-item',
          el('span', 'mention-name', icon(mentionIcon(item.kind)), el('span', 'mention-label', item.name)),
          item.detail ? el('span', 'mention-detail', item.detail) : null,
        );
        option.dataset.kind = item.kind ?? 'file';
        return option;
      },
      sameItem: (a, b) => a.uri === b.uri && a.kind === b.kind,
      onClose: () => {
        this.askedQuery = undefined;
      },
      onPick: (item) => {
        const token = this.token;
        if (token !== undefined) {
          onPick(item, token);
        }
      },
    });
  }

  get element(): HTMLElement {
    return this.combobox.element;
  }

  get isOpen(): boolean {
    return this.combobox.isOpen;
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
        this.combobox.showMessage('Searching…');
      }
    }
  }

  /** The host's answer; an answer to an older query is dropped. */
  results(requestId: number, items: readonly Mention[]): void {
    if (requestId !== this.requestId || this.token === undefined) {
      return;
    }
    this.combobox.show(items, `Nothing matches "${this.token.query}"`);
  }

  close(): void {
    this.combobox.close();
  }

  /** Handles navigation keys while open; returns true when the key was used. */
  handleKey(event: KeyboardEvent): boolean {
    return this.combobox.handleKey(event);
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
