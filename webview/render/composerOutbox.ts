import type { AttachmentRef, ViewMessage } from '../../src/protocol';
import type { CarriedFile } from './imageFiles';
import { MessageQueue, type QueuedMessage } from './messageQueue';
import type { PersistedQueuedMessage } from '../vscodeApi';

/** What a turn's end means for the queue (the thread's turn status). */
export type TurnOutcome = 'completed' | 'cancelled' | 'interrupted' | 'failed' | 'running';

/** One message on its way: its text and what it carries. */
export interface OutgoingMessage {
  readonly text: string;
  readonly attachments: readonly AttachmentRef[];
  readonly images: readonly CarriedFile[];
}

export interface OutboxHost {
  post(message: ViewMessage): boolean;
  /** Keeps the queued messages across the view being hidden. */
  persist(messages: readonly PersistedQueuedMessage[]): void;
  report(message: string): void;
  /** Whether the agent is working on a turn now. */
  running(): boolean;
  /** The send or the queue changed: the composer redraws its buttons. */
  changed(): void;
}

/**
 * The composer's way out: a send locks until the host starts the turn or reports a failure (two
 * quick Enters cannot send twice), a message written while the agent works is queued, and the queue
 * goes on when a turn completes — held after a cancel or a failure, and when the view shows another chat.
 */
export class ComposerOutbox {
  readonly queue: MessageQueue;
  /** What was posted and not yet answered by a turn start or an error. */
  private pending: OutgoingMessage | undefined;
  /** A queued message whose "Send now" cancelled the running turn: sent when that turn ends. */
  private sendAfterTurn: QueuedMessage | undefined;

  constructor(
    persisted: readonly PersistedQueuedMessage[],
    private readonly host: OutboxHost,
  ) {
    this.queue = new MessageQueue(
      (message) => this.sendNow(message),
      (messages) => this.host.persist(messages),
    );
    // Queued before the view was hidden: the turn may have ended unseen, so they wait for the user.
    for (const message of persisted) {
      this.queue.add(message.text, message.attachments, []);
    }
    this.queue.setHeld(persisted.length > 0);
  }

  /** Whether a send is waiting for the host. */
  get isPending(): boolean {
    return this.pending !== undefined;
  }

  /** The message posted and not yet taken up by a turn (shown pending in the transcript). */
  get pendingMessage(): OutgoingMessage | undefined {
    return this.pending;
  }

  /** Sends `message`, or queues it while a turn runs or a send waits; false when the post failed. */
  submit(message: OutgoingMessage): boolean {
    if (this.host.running() || this.pending !== undefined) {
      this.queue.add(message.text, message.attachments, message.images);
      return true;
    }
    return this.post(message);
  }

  /** The host started the turn: the send went through. */
  accepted(): void {
    this.pending = undefined;
    this.host.changed();
  }

  /**
   * The host could not send: unlock, and offer the message back to the box (`giveBack` says whether
   * the box took it); one the box cannot take goes to the front of the queue.
   */
  failed(giveBack: (message: OutgoingMessage) => boolean): void {
    const pending = this.pending;
    this.pending = undefined;
    if (pending !== undefined && !giveBack(pending)) {
      this.queue.putBack(pending.text, pending.attachments, pending.images);
    }
    this.host.changed();
  }

  /**
   * A turn of the chat ended: the first queued message goes when it completed; after a cancel or a
   * failure the queue waits for the user — unless the turn was cancelled for a "Send now".
   */
  turnEnded(outcome: TurnOutcome): void {
    const now = this.sendAfterTurn;
    this.sendAfterTurn = undefined;
    if (now) {
      this.queue.take(now.id);
      this.post(now);
      return;
    }
    if (outcome !== 'completed') {
      this.queue.setHeld(this.queue.length > 0);
      return;
    }
    if (this.queue.isHeld || this.pending !== undefined) {
      return;
    }
    const next = this.queue.shift();
    if (next) {
      this.post(next);
    }
  }

  /** The view now shows another chat: queued messages wait instead of going to it unasked. */
  hold(): void {
    this.sendAfterTurn = undefined;
    this.queue.setHeld(this.queue.length > 0);
  }

  /** Posts a message and locks until the host answers; false when the post failed. */
  private post(message: OutgoingMessage): boolean {
    const { text, attachments, images } = message;
    const posted = this.host.post({
      type: 'send',
      text,
      ...(attachments.length > 0 ? { attachments } : {}),
      ...carriedFields(images),
    });
    if (posted) {
      this.pending = { text, attachments, images };
      this.queue.setHeld(false);
      this.host.changed();
    }
    return posted;
  }

  /** "Send now" on a queued message: cancel the running turn and send it when the turn ends. */
  private sendNow(message: QueuedMessage): void {
    if (this.host.running()) {
      this.sendAfterTurn = message;
      this.host.post({ type: 'cancel' });
      return;
    }
    if (this.pending !== undefined) {
      this.host.report('A message is being sent; try again when the agent has started.');
      return;
    }
    this.queue.take(message.id);
    this.post(message);
  }
}

/** The send message's fields for files carried by value: images and dropped text files. */
function carriedFields(
  carried: readonly CarriedFile[],
): Pick<Extract<ViewMessage, { type: 'send' }>, 'images' | 'textFiles'> {
  const images = carried.flatMap((file) =>
    file.kind === 'image' ? [{ name: file.name, mimeType: file.mimeType, data: file.data }] : [],
  );
  const textFiles = carried.flatMap((file) =>
    file.kind === 'text' ? [{ name: file.name, text: file.text }] : [],
  );
  return { ...(images.length > 0 ? { images } : {}), ...(textFiles.length > 0 ? { textFiles } : {}) };
}
