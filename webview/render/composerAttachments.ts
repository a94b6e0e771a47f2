import type { AttachmentRef } from '../../src/protocol';
import { el, icon, iconButton } from './dom';

/** The files waiting to go with the next message, as chips the user can remove. */
export class ComposerAttachments {
  readonly element = el('div', 'composer-attachments');
  private shown: readonly AttachmentRef[] | undefined;

  constructor(private readonly onRemove: (uri: string) => void) {
    this.element.hidden = true;
    this.element.setAttribute('aria-label', 'Attached files');
    this.element.setAttribute('role', 'list');
  }

  update(attachments: readonly AttachmentRef[]): void {
    if (attachments === this.shown) {
      return;
    }
    this.shown = attachments;
    this.element.hidden = attachments.length === 0;
    this.element.replaceChildren(
      ...attachments.map((attachment) => {
        const chip = el(
          'span',
          'chip composer-chip',
          icon('file'),
          el('span', 'chip-label', attachment.name),
          iconButton('close', `Remove ${attachment.name}`, () => this.onRemove(attachment.uri)),
        );
        chip.title = attachment.uri;
        chip.setAttribute('role', 'listitem');
        return chip;
      }),
    );
  }
}
