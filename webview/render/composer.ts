import type { AttachmentRef, SessionStateMessage, ViewMessage } from '../../src/protocol';
import { ComposerAttachments } from './composerAttachments';
import { button, el } from './dom';
import { SlashMenu } from './slashMenu';

type Command = SessionStateMessage['commands'][number];

/** The protocol's limit for one prompt. */
const MAX_PROMPT_CHARS = 1_000_000;
const MAX_INPUT_HEIGHT_PX = 240;

export interface ComposerHost {
  post(message: ViewMessage): boolean;
  /** The draft kept across the view being hidden. */
  draft: string;
  /** A message was sent: follow the transcript again. */
  onSent(): void;
  /** Something to tell the user inline. */
  report(message: string, severity?: 'error' | 'warning'): void;
  /** The attachments now on the composer (after the user removed one, sent them, or got them back). */
  setAttachments(attachments: readonly AttachmentRef[]): void;
}

export interface ComposerState {
  readonly running: boolean;
  readonly agentName: string;
  readonly commands: readonly Command[];
  readonly attachments: readonly AttachmentRef[];
}

/**
 * The prompt box. Enter sends (Shift+Enter breaks the line; Enter that confirms an IME
 * composition does nothing), Stop cancels a running turn, "/" at the start completes commands,
 * ↑ in an empty box recalls the previous prompt. A send locks the box until the host starts the
 * turn or reports a failure, so two quick Enters cannot send twice. It is a native textarea
 * because the combobox pattern needs aria-activedescendant to reach the list in the same tree.
 */
export class Composer {
  readonly element: HTMLElement;
  readonly input: HTMLTextAreaElement;
  private readonly menu: SlashMenu;
  private readonly send: HTMLElement;
  private readonly stop: HTMLElement;
  private readonly hint = el('span', 'composer-hint');
  private readonly attachments: ComposerAttachments;
  private state: ComposerState = { running: false, agentName: 'the agent', commands: [], attachments: [] };
  /** What was posted and not yet answered by a turn start or an error. */
  private pending: { text: string; attachments: readonly AttachmentRef[] } | undefined;
  private composing = false;
  /** Told the user, during this running turn, that Enter does not send: once is enough. */
  private toldBusy = false;
  private readonly history: string[] = [];
  private historyIndex = -1;
  /** The picked command's input hint, shown while its line is being written. */
  private commandHint = '';

  constructor(private readonly host: ComposerHost) {
    this.input = el('textarea', 'composer-input');
    this.input.rows = 1;
    this.input.setAttribute('aria-label', 'Message');
    this.input.value = host.draft;
    this.menu = new SlashMenu(this.input, (command) => this.pickCommand(command));
    this.send = button('Send', { icon: 'send', ariaLabel: 'Send message', onClick: () => this.trySend() });
    this.send.classList.add('send-button');
    this.stop = button('Stop', {
      icon: 'debug-stop',
      secondary: true,
      ariaLabel: 'Stop the agent',
      onClick: () => this.host.post({ type: 'cancel' }),
    });
    this.stop.classList.add('stop-button');
    this.attachments = new ComposerAttachments((uri) => {
      this.host.setAttachments(this.state.attachments.filter((attachment) => attachment.uri !== uri));
      // The host keeps attachments across view reloads: tell it, or the chip comes back.
      this.host.post({ type: 'remove_attachment', uri });
    });
    const box = el(
      'div',
      'composer-box',
      this.attachments.element,
      this.input,
      el('div', 'composer-toolbar', this.hint, this.stop, this.send),
    );
    this.element = el('div', 'composer', this.menu.element, box);

    this.input.addEventListener('keydown', (event) => this.onKeyDown(event));
    this.input.addEventListener('compositionstart', () => (this.composing = true));
    this.input.addEventListener('compositionend', () => (this.composing = false));
    this.input.addEventListener('input', () => {
      this.host.draft = this.input.value;
      this.historyIndex = -1;
      this.autoGrow();
      this.menu.refresh(this.state.commands);
      this.refreshButtons();
    });
    this.input.addEventListener('click', () => this.menu.refresh(this.state.commands));
    this.input.addEventListener('blur', () => this.menu.close());
    this.refreshButtons();
  }

  update(state: ComposerState): void {
    if (!state.running) {
      this.toldBusy = false;
    }
    this.state = state;
    this.attachments.update(state.attachments);
    this.input.placeholder = `Ask ${state.agentName}…${state.commands.length > 0 ? ' (/ for commands)' : ''}`;
    if (this.menu.isOpen) {
      this.menu.refresh(state.commands);
    }
    this.refreshButtons();
  }

  /** The host started the turn: the send went through. */
  sendAccepted(): void {
    this.pending = undefined;
    this.refreshButtons();
  }

  /** The host could not send: unlock, and give the text back if the box is still empty. */
  sendFailed(): void {
    const pending = this.pending;
    this.pending = undefined;
    if (pending !== undefined && this.input.value.trim() === '') {
      this.input.value = pending.text;
      this.host.draft = pending.text;
      this.autoGrow();
      if (pending.attachments.length > 0 && this.state.attachments.length === 0) {
        this.host.setAttachments(pending.attachments);
      }
    }
    this.refreshButtons();
  }

  /** Whether a send is waiting for the host. */
  get isPending(): boolean {
    return this.pending !== undefined;
  }

  focus(): void {
    this.input.focus();
  }

  private onKeyDown(event: KeyboardEvent): void {
    // keyCode 229 is what browsers report for keys that belong to an IME composition.
    const composing = this.composing || event.isComposing || event.keyCode === 229;
    if (composing) {
      return;
    }
    if (this.menu.handleKey(event)) {
      event.preventDefault();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.altKey) {
      event.preventDefault();
      this.trySend();
      return;
    }
    if (event.key === 'ArrowUp' && this.recall(1)) {
      event.preventDefault();
    } else if (event.key === 'ArrowDown' && this.historyIndex >= 0 && this.recall(-1)) {
      event.preventDefault();
    }
  }

  private trySend(): void {
    const text = this.input.value.trim();
    if (text === '' || this.pending !== undefined) {
      return;
    }
    if (this.state.running) {
      // Not sent, not lost: the text stays in the box, and the user is told (once per turn) why nothing happened.
      if (this.toldBusy) {
        return;
      }
      this.toldBusy = true;
      this.host.report(
        `${this.state.agentName} is still answering. Your message stays here: send it when the turn ends, or press Stop.`,
        'warning',
      );
      return;
    }
    if (text.length > MAX_PROMPT_CHARS) {
      this.host.report(
        `The message is too long (${text.length.toLocaleString('en-US')} characters; the limit is 1,000,000).`,
      );
      return;
    }
    const attachments = this.state.attachments;
    if (!this.host.post({ type: 'send', text, ...(attachments.length > 0 ? { attachments } : {}) })) {
      return;
    }
    this.pending = { text, attachments };
    this.host.setAttachments([]);
    this.history.unshift(text);
    this.historyIndex = -1;
    this.input.value = '';
    this.host.draft = '';
    this.autoGrow();
    this.menu.close();
    this.refreshButtons();
    this.host.onSent();
  }

  /** Walks the sent prompts with ↑/↓ while the box is empty or showing a recalled one. */
  private recall(step: 1 | -1): boolean {
    const showingRecalled = this.historyIndex >= 0 && this.input.value === this.history[this.historyIndex];
    if (this.input.value !== '' && !showingRecalled) {
      return false;
    }
    const index = this.historyIndex + step;
    if (index < -1 || index >= this.history.length) {
      return false;
    }
    this.historyIndex = index;
    this.input.value = index === -1 ? '' : (this.history[index] ?? '');
    this.input.setSelectionRange(this.input.value.length, this.input.value.length);
    this.autoGrow();
    return true;
  }

  private pickCommand(command: Command): void {
    const name = command.name.replace(/^\//, '');
    const rest = this.input.value.replace(/^\/\S*\s?/, '');
    this.input.value = `/${name} ${rest}`;
    const caret = name.length + 2;
    this.input.setSelectionRange(caret, caret);
    this.host.draft = this.input.value;
    this.autoGrow();
    this.commandHint = command.inputHint ?? '';
    this.refreshButtons();
  }

  private autoGrow(): void {
    this.input.style.height = 'auto';
    this.input.style.height = `${Math.min(this.input.scrollHeight, MAX_INPUT_HEIGHT_PX)}px`;
  }

  private refreshButtons(): void {
    const busy = this.state.running || this.pending !== undefined;
    const empty = this.input.value.trim() === '';
    this.send.toggleAttribute('disabled', busy || empty);
    this.send.hidden = this.state.running;
    this.stop.hidden = !this.state.running;
    this.element.classList.toggle('busy', busy);
    if (!this.input.value.startsWith('/')) {
      this.commandHint = '';
    }
    this.hint.textContent = this.state.running
      ? `${this.state.agentName} is working…`
      : this.pending !== undefined
        ? 'Sending…'
        : this.commandHint;
  }
}
