import type { AttachmentRef, CurrentFile } from '../../../src/protocol';
import { attachmentKey } from '../composerAttachments';
import { el, icon, iconButton } from '../dom';

/**
 * The active editor's file, suggested on the composer: a dashed chip ("current file") that goes with
 * the next message as an @-mentioned file does, unless the user removes it (×). Removing holds for
 * that message only: after a send, or when another file becomes current, it is suggested again. A file
 * already attached (an @-mention of it) is not suggested twice.
 */
export class CurrentFileChip {
  readonly element = el('div', 'current-file');
  private file: CurrentFile | undefined;
  private attached: readonly AttachmentRef[] = [];
  /** The file the user took off for this message. */
  private dismissed: string | undefined;

  /** `afterRemove`: where the focus goes once the chip is gone (the message box). */
  constructor(private readonly afterRemove: () => void) {
    this.element.setAttribute('role', 'group');
    this.element.setAttribute('aria-label', 'Current file');
    this.element.hidden = true;
  }

  update(file: CurrentFile | undefined, attachments: readonly AttachmentRef[]): void {
    if (file?.uri === this.file?.uri && attachments === this.attached) {
      return;
    }
    if (file?.uri !== this.file?.uri) {
      this.dismissed = undefined;
    }
    this.file = file;
    this.attached = attachments;
    this.render();
  }

  /** What goes with the message: its attachments, then the suggested file (once, unless removed). */
  withAttachments(attachments: readonly AttachmentRef[]): readonly AttachmentRef[] {
    const offered = this.offered(attachments);
    return offered ? [...attachments, offered] : attachments;
  }

  /** The message went: the next one is offered the current file again. */
  sent(): void {
    this.dismissed = undefined;
    this.render();
  }

  private offered(attachments: readonly AttachmentRef[]): CurrentFile | undefined {
    const file = this.file;
    if (!file || file.uri === this.dismissed) {
      return undefined;
    }
    const key = attachmentKey(file);
    return attachments.some((attachment) => attachmentKey(attachment) === key) ? undefined : file;
  }

  private render(): void {
    const file = this.offered(this.attached);
    this.element.hidden = file === undefined;
    if (!file) {
      this.element.replaceChildren();
      return;
    }
    const chip = el(
      'span',
      'chip current-file-chip',
      icon('file'),
      el('span', 'chip-label', file.name),
      el('span', 'chip-detail', 'current file'),
      iconButton('close', `Don't send ${file.name} (the current file) with this message`, () => {
        this.dismissed = file.uri;
        this.render();
        this.afterRemove();
      }),
    );
    chip.title = `${file.uri}\nThe active editor's file: it goes with the message unless you remove it.`;
    this.element.replaceChildren(chip);
  }
}
