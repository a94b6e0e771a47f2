import type { AttachmentRef } from '../protocol';

/**
 * What a chat view shows: its chat and the files waiting on its composer. Views that share a slot
 * mirror each other; a view with its own slot shows its own chat.
 */
export class ViewSlot {
  /** The chat shown ('' until the journal has been read and a chat chosen). */
  chatId = '';
  private attached: AttachmentRef[] = [];

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
    return true;
  }

  removeAttachment(uri: string): void {
    this.attached = this.attached.filter((attachment) => attachment.uri !== uri);
  }

  clearAttachments(): void {
    this.attached = [];
  }
}
