import type { TerminalState } from '../../terminalText';
import { el, icon, iconButton } from '../dom';
import { TerminalCleaner } from './terminalCleaning';
import { TerminalLines } from './terminalLines';

/** A terminal the agent runs: its latest output (sent separately by the host) and exit status. */
export class TerminalView {
  readonly element: HTMLElement;
  private readonly status: HTMLElement;
  private readonly output: HTMLPreElement;
  private readonly note: HTMLElement;
  private shown: TerminalState | undefined;
  /** The output, cleaned: complete lines only ever appended to while it grows, then the line being written. */
  private readonly lines: TerminalLines;
  private cleaner = new TerminalCleaner();

  /** `open`: the header's "Open in terminal" (VS Code's terminal panel, opened on demand). */
  constructor(
    readonly terminalId: string,
    open?: () => void,
  ) {
    this.status = el('span', 'terminal-status');
    this.output = el('pre', 'terminal-output');
    this.output.tabIndex = 0;
    this.output.setAttribute('aria-label', 'Terminal output');
    this.lines = new TerminalLines(this.output);
    this.note = el('div', 'note note-truncated', icon('fold'), 'Earlier output was dropped.');
    this.element = el(
      'div',
      'terminal',
      el(
        'div',
        'terminal-header',
        icon('terminal'),
        el('span', 'terminal-title', 'Terminal'),
        this.status,
        open ? iconButton('link-external', 'Open in terminal', open) : null,
      ),
      this.output,
      this.note,
    );
    this.update(undefined);
  }

  update(terminal: TerminalState | undefined): void {
    if (terminal !== undefined && terminal === this.shown) {
      return;
    }
    const previous = this.shown;
    this.shown = terminal;
    const atBottom = this.output.scrollHeight - this.output.scrollTop - this.output.clientHeight < 8;
    if (previous && terminal && terminal.text === previous.text && terminal.length >= previous.length) {
      // Grown: only the new part is read, cleaned and added, so a long output costs an update its new part.
      this.write(terminal.text.slice(previous.length, terminal.length), false);
    } else {
      this.write(terminal ? terminal.text.slice(0, terminal.length) : '', true);
    }
    this.output.classList.toggle('empty', !terminal || terminal.length === 0);
    if (atBottom) {
      this.output.scrollTop = this.output.scrollHeight;
    }
    this.note.hidden = !terminal?.truncated;
    this.status.replaceChildren(...statusOf(terminal));
    const exit = terminal?.exitStatus;
    this.element.dataset.state = !exit ? 'running' : exit.exitCode === 0 ? 'success' : 'failure';
  }

  private write(raw: string, replace: boolean): void {
    if (replace) {
      this.cleaner = new TerminalCleaner();
    }
    const { lines, current, extends: extendsLine } = this.cleaner.push(raw);
    if (replace) {
      // A new cleaner's part is all there is, whether or not it only adds to a line.
      this.lines.replace(lines, current);
    } else if (extendsLine) {
      this.lines.extend(current);
    } else {
      this.lines.append(lines, current);
    }
  }
}

function statusOf(terminal: TerminalState | undefined): (Node | string)[] {
  const exit = terminal?.exitStatus;
  if (!exit) {
    return [icon('loading', true), terminal ? 'Running' : 'Waiting for output'];
  }
  if (exit.signal) {
    return [icon('error'), `Killed (${exit.signal})`];
  }
  if (exit.exitCode === 0) {
    return [icon('check'), 'Exit code 0'];
  }
  return [icon('error'), exit.exitCode === null ? 'Exited' : `Exit code ${exit.exitCode}`];
}
