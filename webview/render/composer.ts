import type { AttachmentRef, Mention } from '../../src/protocol';
import { CarriedFiles } from './carriedFiles';
import type { Command, ComposerHost, ComposerState } from './composerContract';
import { attachmentKey, ComposerAttachments } from './composerAttachments';
import { CurrentFileChip } from './currentFile/currentFileChip';
import { el } from './dom';
import { ComposerToolbar } from './composerToolbar';
import { droppedItems } from './droppedItems';
import { MentionHighlights } from './mentions/mentionHighlights';
import { MentionMenu, type MentionToken } from './mentions/mentionMenu';
import { ComposerOutbox, type OutgoingMessage, type TurnOutcome } from './composerOutbox';
import { PromptHistory } from './promptHistory';
import { fitToLines } from './growingInput';
import { SlashMenu } from './slashMenu';

/** The protocol's limit for one prompt. */
const MAX_PROMPT_CHARS = 1_000_000;

export type { TurnOutcome } from './composerOutbox';

/**
 * The prompt box. Enter sends (Shift+Enter breaks the line; Enter that confirms an IME
 * composition does nothing), Stop cancels a running turn, "/" at the start completes commands,
 * ↑ in an empty box recalls the previous prompt, "@" mentions files, folders, symbols, problems and
 * chats (chips above the text), pasted or dropped images and files are attached. Sending and the
 * queue are `ComposerOutbox`'s. It is a native textarea because the combobox
 * pattern needs aria-activedescendant to reach the list in the same tree.
 */
export class Composer {
  readonly element: HTMLElement;
  readonly input: HTMLTextAreaElement;
  private readonly menu: SlashMenu;
  private readonly mentions: MentionMenu;
  private readonly highlights: MentionHighlights;
  private readonly outbox: ComposerOutbox;
  private readonly toolbar: ComposerToolbar;
  private readonly attachments: ComposerAttachments;
  private readonly currentFile = new CurrentFileChip(() => this.input.focus());
  private state: ComposerState = {
    running: false,
    agentName: 'the agent',
    commands: [],
    attachments: [],
    acceptsImages: undefined,
  };
  /** Pasted or dropped images and text files for the next message (kept in the view only). */
  private readonly carried: CarriedFiles;
  private composing = false;
  private readonly history = new PromptHistory();
  /** The picked command's input hint, shown while its line is being written. */
  private commandHint = '';

  constructor(private readonly host: ComposerHost) {
    this.input = el('textarea', 'composer-input');
    this.input.rows = 1;
    this.input.setAttribute('aria-label', 'Message');
    this.input.value = host.draft;
    this.menu = new SlashMenu(this.input, (command) => this.pickCommand(command));
    this.mentions = new MentionMenu(
      this.input,
      (query, requestId) => this.host.post({ type: 'mention_query', query, requestId }),
      (mention, token) => this.pickMention(mention, token),
    );
    this.outbox = new ComposerOutbox(host.queue, {
      post: (message) => this.host.post(message),
      persist: (messages) => (this.host.queue = messages),
      report: (message) => this.host.report(message),
      running: () => this.state.running,
      changed: () => this.refreshButtons(),
    });
    this.toolbar = new ComposerToolbar({
      send: () => this.trySend(),
      stop: () => this.host.post({ type: 'cancel' }),
      attach: () => this.host.post({ type: 'pick_files' }),
    });
    this.carried = new CarriedFiles(
      (message) => this.host.report(message),
      (images) => {
        this.attachments.update(this.state.attachments, images);
        this.refreshButtons();
      },
    );
    this.attachments = new ComposerAttachments(
      (removed) => this.removeAttachment(removed),
      (removed) => this.carried.set(this.carried.list.filter((image) => image !== removed)),
    );
    this.highlights = new MentionHighlights(this.input);
    const box = el(
      'div',
      'composer-box',
      this.currentFile.element,
      this.attachments.element,
      el('div', 'composer-text', this.highlights.element, this.input),
      this.toolbar.element,
    );
    this.element = el(
      'div',
      'composer',
      this.outbox.queue.element,
      this.menu.element,
      this.mentions.element,
      box,
    );
    this.input.addEventListener('paste', (event) => this.carried.onPaste(event, this.state));

    this.input.addEventListener('keydown', (event) => this.onKeyDown(event));
    this.input.addEventListener('compositionstart', () => (this.composing = true));
    this.input.addEventListener('compositionend', () => (this.composing = false));
    this.input.addEventListener('input', () => {
      this.host.draft = this.input.value;
      this.history.reset();
      this.autoGrow();
      this.menu.refresh(this.state.commands);
      this.mentions.refresh();
      this.refreshButtons();
    });
    this.input.addEventListener('click', () => {
      this.menu.refresh(this.state.commands);
      this.mentions.refresh();
    });
    this.input.addEventListener('blur', () => {
      this.menu.close();
      this.mentions.close();
    });
    this.refreshButtons();
  }

  update(state: ComposerState): void {
    this.state = state;
    this.attachments.update(state.attachments, this.carried.list);
    this.currentFile.update(state.currentFile, state.attachments);
    this.input.placeholder = state.locked
      ? state.locked.replace(/\.(\s.*)?$/s, '') // its first sentence; the hint says the rest
      : `Ask ${state.agentName}…${state.commands.length > 0 ? ' (/ for commands)' : ''}`;
    if (this.menu.isOpen) {
      this.menu.refresh(state.commands);
    }
    this.refreshButtons();
  }

  /** The host started the turn: the send went through. */
  sendAccepted(): void {
    this.outbox.accepted();
  }

  /** The host could not send: unlock, and give the text back if the box is still empty. */
  sendFailed(): void {
    this.outbox.failed((message) => {
      if (this.input.value.trim() !== '') {
        return false; // the box holds something newer (a queued message was being sent)
      }
      this.input.value = message.text;
      this.host.draft = message.text;
      this.autoGrow();
      if (message.attachments.length > 0 && this.state.attachments.length === 0) {
        this.host.setAttachments(message.attachments);
      }
      if (message.images.length > 0 && this.carried.list.length === 0) {
        this.carried.set(message.images);
      }
      return true;
    });
  }

  /** The host's answer to the mention picker. */
  mentionResults(requestId: number, items: readonly Mention[]): void {
    this.mentions.results(requestId, items);
  }

  /**
   * A turn of the chat ended: the first queued message goes when it completed; after a cancel or a
   * failure the queue waits for the user — unless the turn was cancelled for a "Send now".
   */
  turnEnded(outcome: TurnOutcome): void {
    this.outbox.turnEnded(outcome);
  }

  /** The view now shows another chat: queued messages wait instead of going to it unasked. */
  holdQueue(): void {
    this.outbox.hold();
  }

  /** A paste or drop onto the chat: images, files with a URI, or a hint for what cannot be taken. */
  async acceptTransfer(transfer: DataTransfer): Promise<void> {
    const dropped = droppedItems(transfer);
    if (dropped.files.length > 0) {
      const known = new Set(this.state.attachments.map(attachmentKey));
      const added = dropped.files.filter((file) => !known.has(attachmentKey(file)));
      this.host.setAttachments([...this.state.attachments, ...added]);
    }
    await this.carried.addImages(dropped.images, this.state);
    await this.carried.addTextFiles(dropped.others);
  }

  /** The message sent and not yet taken up by a turn (the transcript shows it pending). */
  get pending(): OutgoingMessage | undefined {
    return this.outbox.pendingMessage;
  }

  /**
   * Another chat is shown: its own draft replaces the text (`keep`: the first chat of a fresh view
   * takes what was typed before it arrived).
   */
  loadDraft(keep: boolean): void {
    if (keep) {
      if (this.input.value !== this.host.draft) {
        this.host.draft = this.input.value;
      }
      return;
    }
    this.input.value = this.host.draft;
    this.autoGrow();
    this.refreshButtons();
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
    if (this.mentions.handleKey(event) || this.menu.handleKey(event)) {
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
    } else if (event.key === 'ArrowDown' && this.history.recalling && this.recall(-1)) {
      event.preventDefault();
    }
  }

  trySend(): void {
    const text = this.input.value.trim();
    if (text === '' || this.state.locked !== undefined) {
      return;
    }
    if (text.length > MAX_PROMPT_CHARS) {
      this.host.report(
        `The message is too long (${text.length.toLocaleString('en-US')} characters; the limit is 1,000,000).`,
      );
      return;
    }
    const attachments = this.currentFile.withAttachments(this.state.attachments);
    const images = this.carried.list;
    if (!this.outbox.submit({ text, attachments, images })) {
      return;
    }
    this.currentFile.sent();
    this.host.setAttachments([]);
    this.carried.set([]);
    this.history.add(text);
    this.input.value = '';
    this.host.draft = '';
    this.autoGrow();
    this.menu.close();
    this.mentions.close();
    this.refreshButtons();
    this.host.onSent();
  }

  private pickMention(mention: Mention, token: MentionToken): void {
    const label = `@${mention.name} `;
    const value = this.input.value;
    this.input.value = value.slice(0, token.start) + label + value.slice(token.end).replace(/^ /, '');
    const caret = token.start + label.length;
    this.input.setSelectionRange(caret, caret);
    this.host.draft = this.input.value;
    this.autoGrow();
    const { detail: _detail, ...attachment } = mention;
    if (!this.state.attachments.some((existing) => attachmentKey(existing) === attachmentKey(attachment))) {
      this.host.setAttachments([...this.state.attachments, attachment]);
    }
    this.refreshButtons();
  }

  /** Takes an attachment off, with its "@name" in the text when it was a mention. */
  private removeAttachment(removed: AttachmentRef): void {
    const key = attachmentKey(removed);
    this.host.setAttachments(
      this.state.attachments.filter((attachment) => attachmentKey(attachment) !== key),
    );
    const token = `@${removed.name}`;
    const at = this.input.value.indexOf(token);
    if (removed.kind !== undefined && at >= 0) {
      this.input.value = (this.input.value.slice(0, at) + this.input.value.slice(at + token.length)).replace(
        / {2,}/g,
        ' ',
      );
      this.host.draft = this.input.value;
      this.refreshButtons();
    }
    // The host keeps attachments across view reloads: tell it, or the chip comes back.
    this.host.post({ type: 'remove_attachment', uri: removed.uri });
  }

  /** Shows the prompt one step older or newer in the history; false when there is none to show. */
  private recall(step: 1 | -1): boolean {
    const text = this.history.step(this.input.value, step);
    if (text === undefined) {
      return false;
    }
    this.input.value = text;
    this.input.setSelectionRange(text.length, text.length);
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
    this.highlights.update(this.state.attachments);
    fitToLines(this.input);
  }

  private refreshButtons(): void {
    this.highlights.update(this.state.attachments);
    const { running, agentName, locked } = this.state;
    this.input.disabled = locked !== undefined;
    this.element.classList.toggle('locked', locked !== undefined);
    if (!this.input.value.startsWith('/')) {
      this.commandHint = '';
    }
    const busy = this.toolbar.show({
      running,
      pending: this.outbox.isPending,
      empty: this.input.value.trim() === '',
      locked,
      agentName,
      commandHint: this.commandHint,
    });
    this.element.classList.toggle('busy', busy);
  }
}
