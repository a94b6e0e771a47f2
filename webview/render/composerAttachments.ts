import type { AttachmentRef } from '../../src/protocol';
import { el, icon, iconButton } from './dom';
import { formatBytes, type PendingImage } from './imageFiles';
import { mentionIcon } from './mentionIcons';

/** Identifies an attachment on the composer (a selection and its file share a URI). */
export function attachmentKey(attachment: AttachmentRef): string {
  const range = attachment.range ? `#L${attachment.range.startLine}-${attachment.range.endLine}` : '';
  return `${attachment.kind ?? 'file'}|${attachment.uri}${range}`;
}

/** The files, mentions and images waiting to go with the next message, as chips the user can remove. */
export class ComposerAttachments {
  readonly element = el('div', 'composer-attachments');
  private shown: readonly AttachmentRef[] | undefined;
  private shownImages: readonly PendingImage[] | undefined;

  constructor(
    private readonly onRemove: (attachment: AttachmentRef) => void,
    private readonly onRemoveImage: (image: PendingImage) => void,
  ) {
    this.element.hidden = true;
    this.element.setAttribute('aria-label', 'Attached files');
    this.element.setAttribute('role', 'list');
  }

  update(attachments: readonly AttachmentRef[], images: readonly PendingImage[]): void {
    if (attachments === this.shown && images === this.shownImages) {
      return;
    }
    this.shown = attachments;
    this.shownImages = images;
    this.element.hidden = attachments.length === 0 && images.length === 0;
    this.element.replaceChildren(
      ...attachments.map((attachment) => {
        const chip = el(
          'span',
          'chip composer-chip',
          icon(mentionIcon(attachment.kind)),
          el('span', 'chip-label', attachment.name),
          iconButton('close', `Remove ${attachment.name}`, () => this.onRemove(attachment)),
        );
        chip.title = attachment.uri;
        chip.dataset.kind = attachment.kind ?? 'file';
        chip.setAttribute('role', 'listitem');
        return chip;
      }),
      ...images.map((image) => {
        const thumbnail = el('img', 'composer-thumbnail');
        thumbnail.src = `data:${image.mimeType};base64,${image.data}`;
        thumbnail.alt = '';
        const chip = el(
          'span',
          'chip composer-chip composer-image',
          thumbnail,
          el('span', 'chip-label', image.name),
          el('span', 'chip-detail', formatBytes(image.bytes)),
          iconButton('close', `Remove ${image.name}`, () => this.onRemoveImage(image)),
        );
        chip.title = `${image.name} (${image.mimeType})`;
        chip.setAttribute('role', 'listitem');
        return chip;
      }),
    );
  }
}
