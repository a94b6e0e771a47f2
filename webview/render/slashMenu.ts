import type { SessionStateMessage } from '../../src/protocol';
import { el } from './dom';

type Command = SessionStateMessage['commands'][number];

let nextId = 1;

/**
 * The completion list for slash commands, driven by the composer's textarea (an ARIA combobox:
 * focus stays in the textarea, the active option is announced through aria-activedescendant).
 */
export class SlashMenu {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private readonly id = `slash-menu-${nextId++}`;
  private items: Command[] = [];
  private active = 0;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly onPick: (command: Command) => void,
  ) {
    this.list = el('div', 'slash-list');
    this.list.id = this.id;
    this.list.setAttribute('role', 'listbox');
    this.list.setAttribute('aria-label', 'Commands');
    this.element = el('div', 'slash-menu', this.list);
    this.element.hidden = true;
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', this.id);
    input.setAttribute('aria-expanded', 'false');
    // Keep focus in the textarea when an option is clicked.
    this.list.addEventListener('mousedown', (event) => event.preventDefault());
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** Shows the commands matching what is typed, or hides the menu when nothing applies. */
  refresh(commands: readonly Command[]): void {
    const query = queryOf(this.input);
    if (query === undefined || commands.length === 0) {
      this.close();
      return;
    }
    const lower = query.toLowerCase();
    const names = (command: Command): string => command.name.replace(/^\//, '').toLowerCase();
    const starts = commands.filter((command) => names(command).startsWith(lower));
    const contains = commands.filter(
      (command) => !names(command).startsWith(lower) && names(command).includes(lower),
    );
    const items = [...starts, ...contains];
    if (items.length === 0) {
      this.close();
      return;
    }
    const previous = this.items[this.active]?.name;
    this.items = items;
    const keep = items.findIndex((command) => command.name === previous);
    this.active = keep >= 0 ? keep : 0;
    this.render();
  }

  close(): void {
    this.element.hidden = true;
    this.items = [];
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
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
        const command = this.items[this.active];
        if (!command || event.shiftKey) {
          return false;
        }
        this.close();
        this.onPick(command);
        return true;
      }
      case 'Escape':
        this.close();
        return true;
      default:
        return false;
    }
  }

  private move(delta: number): void {
    const count = this.items.length;
    this.active = (this.active + delta + count) % count;
    this.render();
  }

  private render(): void {
    this.list.replaceChildren(
      ...this.items.map((command, index) => {
        const name = `/${command.name.replace(/^\//, '')}`;
        const option = el(
          'div',
          'slash-item',
          el('span', 'slash-name', name),
          command.inputHint ? el('span', 'slash-hint', command.inputHint) : null,
          el('span', 'slash-description', command.description),
        );
        option.id = `${this.id}-${index}`;
        option.setAttribute('role', 'option');
        option.setAttribute('aria-selected', String(index === this.active));
        option.addEventListener('click', () => {
          this.close();
          this.onPick(command);
        });
        return option;
      }),
    );
    this.element.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
    this.input.setAttribute('aria-activedescendant', `${this.id}-${this.active}`);
    this.list.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }
}

/** The command name being typed: text after a leading "/" up to the caret, with no space yet. */
function queryOf(input: HTMLTextAreaElement): string | undefined {
  const caret = input.selectionStart;
  const before = input.value.slice(0, caret);
  const match = /^\/(\S*)$/.exec(before);
  return match?.[1];
}
