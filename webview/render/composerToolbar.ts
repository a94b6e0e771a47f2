import { button, el, iconButton } from './dom';

/** What the composer's toolbar shows. */
export interface ToolbarState {
  /** A turn runs: Stop instead of Send. */
  readonly running: boolean;
  /** A send waits for its turn (it can be stopped too). */
  readonly pending: boolean;
  /** Nothing to send in the box. */
  readonly empty: boolean;
  /** Why no message can be written now. */
  readonly locked: string | undefined;
  readonly agentName: string;
  /** The picked command's input hint. */
  readonly commandHint: string;
}

/** The row under the message box: Attach, the hint (what is going on, or the command's input), Stop, Send. */
export class ComposerToolbar {
  readonly element: HTMLElement;
  private readonly send: HTMLElement;
  private readonly stop: HTMLElement;
  private readonly hint = el('span', 'composer-hint');

  constructor(actions: { send(): void; stop(): void; attach(): void }) {
    this.send = button('Send', { icon: 'send', ariaLabel: 'Send message', onClick: () => actions.send() });
    this.send.classList.add('send-button');
    this.stop = button('Stop', {
      icon: 'debug-stop',
      secondary: true,
      ariaLabel: 'Stop the agent',
      onClick: () => actions.stop(),
    });
    this.stop.classList.add('stop-button');
    const attach = iconButton('attach', 'Attach files', () => actions.attach());
    attach.classList.add('attach-button');
    this.element = el('div', 'composer-toolbar', attach, this.hint, this.stop, this.send);
  }

  /** Whether the toolbar shows Stop (a turn runs or a send waits); the composer is busy then. */
  show(state: ToolbarState): boolean {
    const busy = state.running || state.pending;
    this.send.toggleAttribute('disabled', state.pending || state.empty || state.locked !== undefined);
    this.send.hidden = busy;
    this.stop.hidden = !busy;
    this.hint.textContent = state.locked
      ? state.locked
      : state.running
        ? `${state.agentName} is working…`
        : state.pending
          ? 'Sending…'
          : state.commandHint;
    return busy;
  }
}
