import type { ThreadEntryMessage } from '../../src/protocol';
import { StreamingMarkdown } from '../markdown/streamingMarkdown';
import { attachmentChips } from './attachments';
import { Disclosure } from './disclosure';
import { linkMentions } from './mentions/mentionLinks';
import { el, icon, iconButton, OptionalChild, setIdAttribute } from './dom';
import type { EntryView, MessageEntry, RenderContext } from './types';

/** A user or agent message: markdown (streamed incrementally), attachments, truncation note. */
export class MessageView implements EntryView {
  readonly element: HTMLElement;
  readonly entryId: string;
  private readonly markdown: StreamingMarkdown;
  /** What follows the text when there is any (attachments, a truncation note). */
  private readonly extras: OptionalChild;
  private attachments: MessageEntry['attachments'] | undefined;
  private truncated: MessageEntry['truncated'];
  private linkedText: string | undefined;
  /** The entry as last shown (what Edit puts back in the composer). */
  private entry: MessageEntry;

  constructor(
    entry: MessageEntry,
    private readonly context: RenderContext,
  ) {
    this.entry = entry;
    // The agent's answers stream; the user's message arrives whole and gets its mentions linked at once.
    this.markdown = new StreamingMarkdown('markdown', entry.kind === 'agent');
    const body = entry.kind === 'user' ? el('div', 'user-bubble', this.markdown.element) : undefined;
    this.element = el('article', `entry entry-${entry.kind}`, body ?? this.markdown.element);
    this.extras = new OptionalChild('message-extras', body ?? this.element);
    this.entryId = entry.id;
    setIdAttribute(this.element, 'data-entry-id', entry.id);
    this.element.setAttribute('aria-label', entry.kind === 'user' ? 'You' : 'Agent');
    if (entry.kind === 'user') {
      // Its actions are made when the keyboard reaches it, or the pointer (render/turnActions.ts).
      this.element.tabIndex = 0;
    }
    this.update(entry);
  }

  /** Edit and resend, for the user's message when the chat offers it (see render/turnActions.ts). */
  editAction(): HTMLButtonElement | undefined {
    const edit = this.context.editMessage;
    if (this.entry.kind !== 'user' || !edit) {
      return undefined;
    }
    const action = iconButton('edit', 'Edit and resend', () => edit(this.entry));
    action.classList.add('edit-message');
    return action;
  }

  update(entry: ThreadEntryMessage): void {
    if (entry.kind === 'tool_call') {
      return;
    }
    this.entry = entry;
    this.markdown.setText(entry.text);
    // The user's own message is whole when it arrives: its @-mentions become links once.
    if (entry.kind === 'user' && entry.attachments.length > 0 && this.linkedText !== entry.text) {
      this.linkedText = entry.text;
      linkMentions(this.markdown.element, entry.attachments, this.context);
    }
    if (entry.attachments !== this.attachments || entry.truncated !== this.truncated) {
      this.attachments = entry.attachments;
      this.truncated = entry.truncated;
      this.extras.show(messageExtras(entry, this.context));
    }
  }

  /** Text appended to the entry shown (nothing else about it changed). */
  appendText(_entry: MessageEntry, delta: string): void {
    this.markdown.append(delta);
  }

  /**
   * Its turn ended: the text is shown as a render once of it shows it, and the markdown worker lets it go (see
   * StreamingMarkdown.finish).
   */
  streamEnded(): void {
    this.markdown.finish();
  }
}

/**
 * Thoughts in a collapsible "Thinking" block: open while the agent thinks, closed after. A closed
 * block renders its text only when opened.
 */
export class ThoughtView implements EntryView {
  readonly element: HTMLElement;
  readonly entryId: string;
  private readonly disclosure = new Disclosure('thought', false);
  private readonly markdown = new StreamingMarkdown('markdown thought-text', true);
  private readonly extras = new OptionalChild('message-extras', this.disclosure.body);
  private readonly spinner = icon('loading', true);
  private truncated: MessageEntry['truncated'];
  private text = '';

  constructor(
    entry: MessageEntry,
    private readonly context: RenderContext,
  ) {
    this.disclosure.onToggle = (open) => {
      if (open) {
        this.markdown.setText(this.text);
      }
    };
    this.spinner.classList.add('thought-spinner');
    this.disclosure.header.append(icon('lightbulb'), el('span', 'thought-label', 'Thinking'), this.spinner);
    this.disclosure.body.append(this.markdown.element);
    this.element = el('div', 'entry entry-thought', this.disclosure.element);
    this.entryId = entry.id;
    setIdAttribute(this.element, 'data-entry-id', entry.id);
    this.update(entry);
  }

  update(entry: ThreadEntryMessage): void {
    if (entry.kind === 'tool_call') {
      return;
    }
    this.text = entry.text;
    if (this.disclosure.isOpen) {
      this.markdown.setText(entry.text);
    }
    if (entry.truncated !== this.truncated) {
      this.truncated = entry.truncated;
      this.extras.show(messageExtras(entry, this.context));
    }
  }

  /** Text appended to the entry shown (nothing else about it changed). */
  appendText(entry: MessageEntry, delta: string): void {
    this.text = entry.text;
    if (this.disclosure.isOpen) {
      this.markdown.append(delta);
    }
  }

  /** Its turn ended: let go by the markdown worker, as a message is (see StreamingMarkdown.finish). */
  streamEnded(): void {
    this.markdown.finish();
  }

  /** Active while it is the newest thing in a running turn; done thinking, its stream ends as a message's does. */
  setActive(active: boolean): void {
    this.spinner.hidden = !active;
    this.disclosure.setAutoOpen(active);
    if (!active) {
      this.markdown.end();
    }
  }
}

function messageExtras(entry: MessageEntry, context: RenderContext): Node[] {
  const nodes: Node[] = [];
  if (entry.attachments.length > 0) {
    nodes.push(attachmentChips(entry.attachments, context));
  }
  if (entry.truncated) {
    nodes.push(messageCutNote(entry.id, entry.truncated, context));
  }
  return nodes;
}

/** The marker is already in the text; this says how much was dropped. */
export function truncationNote(truncated: NonNullable<MessageEntry['truncated']>): HTMLElement {
  const omitted = truncated.omittedChars.toLocaleString('en-US');
  const limit = truncated.limit.toLocaleString('en-US');
  return el(
    'div',
    'note note-truncated',
    icon('fold'),
    `Truncated: ${omitted} characters past the ${limit}-character limit were not kept.`,
  );
}

/**
 * The marker is already in the text (between the head and the end kept); this says how much is not
 * shown and opens the message, as journaled, in an editor.
 */
function messageCutNote(
  entryId: string,
  truncated: NonNullable<MessageEntry['truncated']>,
  context: RenderContext,
): HTMLElement {
  const omitted = truncated.omittedChars.toLocaleString('en-US');
  const limit = truncated.limit.toLocaleString('en-US');
  const open = el('button', 'link-button', 'Open the whole message');
  open.type = 'button';
  open.addEventListener('click', () => context.post({ type: 'open_message', entryId }));
  return el(
    'div',
    'note note-truncated',
    icon('fold'),
    el(
      'span',
      '',
      `Over the ${limit}-character limit: ${omitted} characters in the middle are not shown here. `,
    ),
    open,
  );
}
