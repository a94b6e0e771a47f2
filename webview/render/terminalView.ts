import type { TerminalOutputMessage } from '../../src/protocol';
import { el, icon } from './dom';

// eslint-disable-next-line no-control-regex -- ANSI escape sequences start with ESC
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/** Terminal text without colour codes; a line rewritten with \r shows its last state. */
export function cleanTerminalText(output: string): string {
  return output
    .replace(ANSI, '')
    .split('\n')
    .map((line) => {
      const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
      return trimmed.slice(trimmed.lastIndexOf('\r') + 1);
    })
    .join('\n');
}

/** A terminal the agent runs: its latest output (sent separately by the host) and exit status. */
export class TerminalView {
  readonly element: HTMLElement;
  private readonly status: HTMLElement;
  private readonly output: HTMLPreElement;
  private readonly note: HTMLElement;
  private shown: TerminalOutputMessage | undefined;

  constructor(readonly terminalId: string) {
    this.status = el('span', 'terminal-status');
    this.output = el('pre', 'terminal-output');
    this.output.tabIndex = 0;
    this.output.setAttribute('aria-label', 'Terminal output');
    this.note = el('div', 'note note-truncated', icon('fold'), 'Earlier output was dropped.');
    this.element = el(
      'div',
      'terminal',
      el('div', 'terminal-header', icon('terminal'), el('span', 'terminal-title', 'Terminal'), this.status),
      this.output,
      this.note,
    );
    this.update(undefined);
  }

  update(terminal: TerminalOutputMessage | undefined): void {
    if (terminal !== undefined && terminal === this.shown) {
      return;
    }
    this.shown = terminal;
    const atBottom = this.output.scrollHeight - this.output.scrollTop - this.output.clientHeight < 8;
    this.output.textContent = terminal ? cleanTerminalText(terminal.output) : '';
    this.output.classList.toggle('empty', !terminal || terminal.output === '');
    if (atBottom) {
      this.output.scrollTop = this.output.scrollHeight;
    }
    this.note.hidden = !terminal?.truncated;
    this.status.replaceChildren(...statusOf(terminal));
    const exit = terminal?.exitStatus;
    this.element.dataset.state = !exit ? 'running' : exit.exitCode === 0 ? 'success' : 'failure';
  }
}

function statusOf(terminal: TerminalOutputMessage | undefined): (Node | string)[] {
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
