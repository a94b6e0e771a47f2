import { TRANSCRIPT_URI_PREFIX, type AttachmentMessage } from '../../src/protocol';
import { classifyLink } from '../links';
import { el, icon } from './dom';
import type { RenderContext } from './types';

/** Attachments of a message or tool output as chips; ones that point somewhere open it on click. */
export function attachmentChips(
  attachments: readonly AttachmentMessage[],
  context: RenderContext,
): HTMLElement {
  const list = el('div', 'attachments');
  for (const attachment of attachments) {
    list.append(attachmentChip(attachment, context));
  }
  return list;
}

export function attachmentChip(attachment: AttachmentMessage, context: RenderContext): HTMLElement {
  const { iconName, label, detail, uri } = describe(attachment);
  const target = uri === undefined ? undefined : classifyLink(uri);
  const content = [
    icon(iconName),
    el('span', 'chip-label', label),
    detail ? el('span', 'chip-detail', detail) : null,
  ];
  if (target?.kind === 'file' || target?.kind === 'url') {
    const chip = el('button', 'chip chip-action', ...content);
    chip.type = 'button';
    chip.title = uri ?? label;
    chip.addEventListener('click', () => {
      if (target.kind === 'file') {
        context.post({ type: 'open_file', path: target.path, ...(target.line ? { line: target.line } : {}) });
      } else {
        context.post({ type: 'open_url', url: target.url });
      }
    });
    return chip;
  }
  const chip = el('span', 'chip', ...content);
  chip.title = uri ?? label;
  return chip;
}

/** What an attachment chip shows and where it points (for linking "@name" in the message text). */
export function describeAttachment(attachment: AttachmentMessage): { label: string; uri?: string } {
  const { label, uri } = describe(attachment);
  return uri === undefined ? { label } : { label, uri };
}

function describe(attachment: AttachmentMessage): {
  iconName: string;
  label: string;
  detail?: string;
  uri?: string;
} {
  switch (attachment.type) {
    case 'resource_link':
      return {
        iconName: 'file',
        label: withLines(attachment.title ?? attachment.name, attachment.uri),
        uri: attachment.uri,
      };
    case 'resource':
      if (attachment.uri.startsWith(TRANSCRIPT_URI_PREFIX)) {
        return {
          iconName: 'history',
          label: 'the conversation up to here',
          detail: `${attachment.chars.toLocaleString('en-US')} chars`,
        };
      }
      return {
        iconName: 'file-code',
        label: withLines(baseName(attachment.uri), attachment.uri),
        detail: `${attachment.chars.toLocaleString('en-US')} chars`,
        uri: attachment.uri,
      };
    case 'image':
      return {
        iconName: 'file-media',
        label: attachment.uri ? baseName(attachment.uri) : `Image (${attachment.mimeType})`,
        detail: formatBytes(attachment.bytes),
        ...(attachment.uri ? { uri: attachment.uri } : {}),
      };
    case 'audio':
      return {
        iconName: 'unmute',
        label: `Audio (${attachment.mimeType})`,
        detail: formatBytes(attachment.bytes),
      };
    default: {
      const never: never = attachment;
      return { iconName: 'question', label: String((never as { type: unknown }).type) };
    }
  }
}

/**
 * The file name with the lines a selection covers (`hello.ts:2-4` for `…/hello.ts#L2-L4`), so the
 * range is on the chip itself, not only in its tooltip.
 */
function withLines(name: string, uri: string): string {
  const match = /#L(\d+)(?:-L?(\d+))?$/i.exec(uri);
  if (!match) {
    return name;
  }
  const [, first, last] = match;
  return last && last !== first ? `${name}:${first}-${last}` : `${name}:${first}`;
}

function baseName(uri: string): string {
  const path = uri.replace(/[?#].*$/, '').replace(/[\\/]+$/, '');
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  try {
    return decodeURIComponent(name) || uri;
  } catch {
    return name || uri;
  }
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) {
    return `${bytes} B`;
  }
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
