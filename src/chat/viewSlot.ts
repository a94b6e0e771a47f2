import type { AttachmentRef } from '../protocol';
import { Emitter } from '../core/util/disposable';

/**
 * What a chat view shows: its chat and the files waiting on its composer. Views that share a slot
 * mirror each other; a view with its own slot shows its own chat.
 */
export class ViewSlot {
  private shown = '';
  private readonly chatChanged = new Emitter<string>();
  /** The view moved to another chat (new, switched, or the one it showed was deleted). */
  readonly onDidChangeChat = this.chatChanged.event;
  private attached: AttachmentRef[] = [];
  private readonly attachmentsChanged = new Emitter<void>();
  /** The composer's attachments changed: one added, removed, or all sent. */
  readonly onDidChangeAttachments = this.attachmentsChanged.event;

  /** The chat shown ('' until the journal has been read and a chat chosen). */
  get chatId(): string {
    return this.shown;
  }

  set chatId(chatId: string) {
    if (chatId !== this.shown) {
      this.shown = chatId;
      this.chatChanged.fire(chatId);
    }
  }

  /** The files on the composer, kept until the message goes (and across a view reload). */
  get attachments(): readonly AttachmentRef[] {
    return this.attached;
  }

  /** Returns false when the file is already on the composer. */
  addAttachment(attachment: AttachmentRef): boolean {
    if (this.attached.some((a) => a.uri === attachment.uri)) {
      return false;
    }
    this.attached.push(attachment);
    this.attachmentsChanged.fire();
    return true;
  }

  removeAttachment(uri: string): void {
    this.attached = this.attached.filter((attachment) => attachment.uri !== uri);
    this.attachmentsChanged.fire();
  }

  clearAttachments(): void {
    this.attached = [];
    this.attachmentsChanged.fire();
  }
}
