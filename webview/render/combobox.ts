import { el } from './dom';

let nextId = 1;

export interface ComboboxOptions<T> {
  /** The textarea that keeps focus and drives the list (the ARIA combobox). */
  readonly input: HTMLTextAreaElement;
  /** Names the element ids and CSS classes: `<name>-menu`, `<name>-list`, `<name>-empty`. */
  readonly name: string;
  /** The listbox's accessible name. */
  readonly label: string;
  /** One option's content (the combobox adds its id, role, selection and click). */
  readonly renderOption: (item: T) => HTMLElement;
  /** Whether two items are the same entry, so the active one stays active across a refresh. */
  readonly sameItem: (a: T, b: T) => boolean;
  readonly onPick: (item: T) => void;
  /** Called on every close (Escape, a pick, nothing to pick), for the menu's own state. */
  readonly onClose?: () => void;
}

/**
 * A completion list driven by a textarea, shared by the / and @ menus: focus stays in the textarea,
 * the active option is announced through aria-activedescendant, ArrowUp/ArrowDown move, Enter/Tab
 * pick (Shift passes them on), Escape closes. Two menus on one textarea take turns: the one open owns
 * aria-controls and gives it back when it closes.
 */
export class Combobox<T> {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private readonly id: string;
  private items: readonly T[] = [];
  private active = 0;
  private controlsBeforeOpen: string | null = null;

  constructor(private readonly options: ComboboxOptions<T>) {
    this.id = `${options.name}-menu-${nextId++}`;
    this.list = el('div', `${options.name}-list`);
    this.list.id = this.id;
    this.list.setAttribute('role', 'listbox');
    this.list.setAttribute('aria-label', options.label);
    this.element = el('div', `${options.name}-menu`, this.list);
    this.element.hidden = true;
    const input = options.input;
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    if (!input.hasAttribute('aria-controls')) {
      input.setAttribute('aria-controls', this.id);
    }
    if (!input.hasAttribute('aria-expanded')) {
      input.setAttribute('aria-expanded', 'false');
    }
    // Keep focus in the textarea when an option is clicked.
    this.list.addEventListener('mousedown', (event) => event.preventDefault());
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** The active item, if the list has any. */
  get current(): T | undefined {
    return this.items[this.active];
  }

  /**
   * Shows `items`, keeping the active entry where it is still listed. An empty list shows
   * `emptyMessage`, or closes the menu when there is none (the two menus differ there).
   */
  show(items: readonly T[], emptyMessage?: string): void {
    if (items.length === 0) {
      if (emptyMessage === undefined) {
        this.close();
      } else {
        this.showMessage(emptyMessage);
      }
      return;
    }
    const previous = this.current;
    this.items = items;
    const keep =
      previous === undefined ? -1 : items.findIndex((item) => this.options.sameItem(item, previous));
    this.active = keep >= 0 ? keep : 0;
    this.render();
  }

  /** Opens the menu with a line of text and no options ("Searching…"). */
  showMessage(text: string): void {
    this.items = [];
    this.list.replaceChildren(el('div', `${this.options.name}-empty`, text));
    this.open();
    this.options.input.removeAttribute('aria-activedescendant');
  }

  close(): void {
    const wasOpen = this.isOpen;
    this.element.hidden = true;
    this.items = [];
    this.options.onClose?.();
    if (!wasOpen) {
      return; // the textarea's combobox state may belong to the other menu
    }
    const input = this.options.input;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    if (this.controlsBeforeOpen !== null) {
      input.setAttribute('aria-controls', this.controlsBeforeOpen);
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
      case 'Tab':
        if (event.shiftKey) {
          return false;
        }
        if (this.items.length === 0) {
          // Nothing to pick (no match, no answer yet): the key does what it does without the menu.
          this.close();
          return false;
        }
        this.pick(this.active);
        return true;
      case 'Escape':
        this.close();
        return true;
      default:
        return false;
    }
  }

  private pick(index: number): void {
    const item = this.items[index];
    if (item === undefined) {
      return;
    }
    this.close();
    this.options.onPick(item);
  }

  private move(delta: number): void {
    const count = this.items.length;
    if (count === 0) {
      return;
    }
    this.active = (this.active + delta + count) % count;
    this.render();
  }

  private render(): void {
    this.list.replaceChildren(
      ...this.items.map((item, index) => {
        const option = this.options.renderOption(item);
        option.id = `${this.id}-${index}`;
        option.setAttribute('role', 'option');
        option.setAttribute('aria-selected', String(index === this.active));
        option.addEventListener('click', () => this.pick(index));
        return option;
      }),
    );
    this.open();
    this.options.input.setAttribute('aria-activedescendant', `${this.id}-${this.active}`);
    this.list.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }

  private open(): void {
    const input = this.options.input;
    if (!this.isOpen) {
      this.controlsBeforeOpen = input.getAttribute('aria-controls');
    }
    this.element.hidden = false;
    input.setAttribute('aria-controls', this.id);
    input.setAttribute('aria-expanded', 'true');
  }
}
