import type { SessionStateMessage } from '../../src/protocol';
import { Combobox } from './combobox';
import { el } from './dom';

type Command = SessionStateMessage['commands'][number];

/** The completion list for slash commands, driven by the composer's textarea (see `Combobox`). */
export class SlashMenu {
  private readonly combobox: Combobox<Command>;

  constructor(
    private readonly input: HTMLTextAreaElement,
    onPick: (command: Command) => void,
  ) {
    this.combobox = new Combobox<Command>({
      input,
      name: 'slash',
      label: 'Commands',
      renderOption: (command) =>
        el(
          'div',
          'slash-item',
          el('span', 'slash-name', `/${command.name.replace(/^\//, '')}`),
          command.inputHint ? el('span', 'slash-hint', command.inputHint) : null,
          el('span', 'slash-description', command.description),
        ),
      sameItem: (a, b) => a.name === b.name,
      onPick,
    });
  }

  get element(): HTMLElement {
    return this.combobox.element;
  }

  get isOpen(): boolean {
    return this.combobox.isOpen;
  }

  /** Shows the commands matching what is typed, or hides the menu when nothing applies. */
  refresh(commands: readonly Command[]): void {
    const query = queryOf(this.input);
    if (query === undefined) {
      this.close();
      return;
    }
    const lower = query.toLowerCase();
    const names = (command: Command): string => command.name.replace(/^\//, '').toLowerCase();
    const starts = commands.filter((command) => names(command).startsWith(lower));
    const contains = commands.filter(
      (command) => !names(command).startsWith(lower) && names(command).includes(lower),
    );
    // No command matches: no menu (the text may be a path like "/tmp").
    this.combobox.show([...starts, ...contains]);
  }

  close(): void {
    this.combobox.close();
  }

  /** Handles navigation keys while open; returns true when the key was used. */
  handleKey(event: KeyboardEvent): boolean {
    return this.combobox.handleKey(event);
  }
}

/** The command name being typed: text after a leading "/" up to the caret, with no space yet. */
function queryOf(input: HTMLTextAreaElement): string | undefined {
  const caret = input.selectionStart;
  const before = input.value.slice(0, caret);
  const match = /^\/(\S*)$/.exec(before);
  return match?.[1];
}
