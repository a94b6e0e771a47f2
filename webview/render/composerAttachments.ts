import type { AttachmentRef } from '../../src/protocol';
import { el, icon, iconButton } from './dom';
import { formatBytes, type CarriedFile } from './imageFiles';
import { mentionIcon } from './mentions/mentionIcons';

/** Identifies an attachment on the composer (a selection and its file share a URI). */
export function attachmentKey(attachment: AttachmentRef): string {
  const range = attachment.range ? `#L${attachment.range.startLine}-${attachment.range.endLine}` : '';
  return `${attachment.kind ?? 'file'}|${attachment.uri}${range}`;
}

/** The files, mentions and images waiting to go with the next message, as chips the user can remove. */
export class ComposerAttachments {
  readonly element = el('div', 'composer-attachments');
  private shown: readonly AttachmentRef[] | undefined;
  private shownImages: readonly CarriedFile[] | undefined;

  constructor(
    private readonly onRemove: (attachment: AttachmentRef) => void,
    private readonly onRemoveImage: (image: CarriedFile) => void,
  ) {
    this.element.hidden = true;
    this.element.setAttribute('aria-label', 'Attached files');
    this.element.setAttribute('role', 'list');
  }

  update(attachments: readonly AttachmentRef[], images: readonly CarriedFile[]): void {
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
      ...images.map((carried) => {
        const chip =
          carried.kind === 'image'
            ? el(
                'span',
                'chip composer-chip composer-image',
                thumbnail(carried.mimeType, carried.data),
                el('span', 'chip-label', carried.name),
                el('span', 'chip-detail', formatBytes(carried.bytes)),
                iconButton('close', `Remove ${carried.name}`, () => this.onRemoveImage(carried)),
              )
            : el(
                'span',
                'chip composer-chip composer-text-file',
                icon('file'),
                el('span', 'chip-label', carried.name),
                el('span', 'chip-detail', formatBytes(carried.bytes)),
                iconButton('close', `Remove ${carried.name}`, () => this.onRemoveImage(carried)),
              );
        chip.title = carried.kind === 'image' ? `${carried.name} (${carried.mimeType})` : carried.name;
        chip.setAttribute('role', 'listitem');
        return chip;
      }),
    );
  }
}

function thumbnail(mimeType: string, data: string): HTMLImageElement {
  const image = el('img', 'composer-thumbnail');
  image.src = `data:${mimeType};base64,${data}`;
  image.alt = '';
  return image;
}
