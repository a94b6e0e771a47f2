import type { AttachmentRef } from '../../src/protocol';
import { el, icon, iconButton } from './dom';
import type { CarriedFile } from './imageFiles';

/** A message written while a turn ran, waiting to be sent. */
export interface QueuedMessage {
  readonly id: number;
  text: string;
  readonly attachments: readonly AttachmentRef[];
  readonly images: readonly CarriedFile[];
}

let nextQueuedId = 1;

/**
 * Messages queued above the composer while the agent works: each is editable in place, can be
 * moved up or down, removed, or sent now. The composer sends the first one when a turn completes;
 * after a cancelled or failed turn the queue is held until the user acts.
 */
export class MessageQueue {
  readonly element = el('div', 'message-queue');
  private readonly items: QueuedMessage[] = [];
  private held = false;

  constructor(
    private readonly onSendNow: (message: QueuedMessage) => void,
    /** Called after every change (to keep the queue across the view being hidden). */
    private readonly onChange: (messages: readonly QueuedMessage[]) => void = () => undefined,
  ) {
    this.element.hidden = true;
    this.element.setAttribute('role', 'list');
    this.element.setAttribute('aria-label', 'Queued messages');
  }

  get length(): number {
    return this.items.length;
  }

  /** True after a turn that did not complete: nothing is sent until the user says so. */
  get isHeld(): boolean {
    return this.held;
  }

  add(text: string, attachments: readonly AttachmentRef[], images: readonly CarriedFile[]): void {
    this.items.push({ id: nextQueuedId++, text, attachments, images });
    this.render();
  }

  /** Puts a message back at the front (a send of it failed while the box held other text). */
  putBack(text: string, attachments: readonly AttachmentRef[], images: readonly CarriedFile[]): void {
    this.items.unshift({ id: nextQueuedId++, text, attachments, images });
    this.held = true;
    this.render();
  }

  /**
   * Takes the first message off the queue (to send it). An empty queue is left as it is: every turn's
   * end asks, and a change saves the queue in the view's state (in VS Code, a message to the window).
   */
  shift(): QueuedMessage | undefined {
    const first = this.items.shift();
    if (first) {
      this.render();
    }
    return first;
  }

  /** Takes a given message off the queue. */
  take(id: number): QueuedMessage | undefined {
    const index = this.items.findIndex((item) => item.id === id);
    const [taken] = index >= 0 ? this.items.splice(index, 1) : [];
    if (taken) {
      this.render();
    }
    return taken;
  }

  setHeld(held: boolean): void {
    if (this.held !== held) {
      this.held = held;
      this.render();
    }
  }

  private move(id: number, delta: -1 | 1): void {
    const index = this.items.findIndex((item) => item.id === id);
    const target = index + delta;
    const item = this.items[index];
    const other = this.items[target];
    if (!item || !other) {
      return;
    }
    this.items[target] = item;
    this.items[index] = other;
    this.render();
    this.element.querySelector<HTMLElement>(`[data-queued-id="${id}"] .queued-text`)?.focus();
  }

  private render(): void {
    this.onChange(this.items);
    this.element.hidden = this.items.length === 0;
    const note = this.held
      ? el(
          'div',
          'queue-note',
          icon('debug-pause'),
          'The last turn did not complete: queued messages wait for you.',
        )
      : el('div', 'queue-note', icon('clock'), 'Sent in order when the agent finishes.');
    this.element.replaceChildren(
      note,
      ...this.items.map((item, index) => {
        const text = el('textarea', 'queued-text');
        text.rows = 1;
        text.value = item.text;
        text.setAttribute('aria-label', `Queued message ${index + 1}`);
        text.addEventListener('input', () => {
          item.text = text.value;
          this.onChange(this.items);
        });
        const extras = item.attachments.length + item.images.length;
        const up = iconButton('arrow-up', 'Move up', () => this.move(item.id, -1));
        const down = iconButton('arrow-down', 'Move down', () => this.move(item.id, 1));
        up.disabled = index === 0;
        down.disabled = index === this.items.length - 1;
        const row = el(
          'div',
          'queued-message',
          text,
          extras > 0 ? el('span', 'queued-extras', icon('paperclip'), String(extras)) : null,
          up,
          down,
          iconButton('send', 'Send now', () => this.onSendNow(item)),
          iconButton('close', 'Remove from queue', () => this.take(item.id)),
        );
        row.dataset.queuedId = String(item.id);
        row.setAttribute('role', 'listitem');
        return row;
      }),
    );
  }
}
