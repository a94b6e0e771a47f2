import type { AttachmentMessage } from '../../../src/protocol';
import { classifyLink } from '../../links';
import { describeAttachment } from '../attachments';
import type { RenderContext } from '../types';

/** "@name" in a sent message, ending before whitespace or trailing punctuation. */
const MENTION = /@([^\s@]+?)(?=[\s,;:!?)]|[.](?:\s|$)|$)/g;

/**
 * Turns "@hello.ts" in a sent user message into a link to what was attached under that name (the
 * mention's chip label), so a mention reads as a link where it was written. Only text outside code
 * is touched, only names that match an attachment, and only file targets act (like every link).
 */
export function linkMentions(
  root: HTMLElement,
  attachments: readonly AttachmentMessage[],
  context: RenderContext,
): void {
  const targets = new Map<string, { path: string; line?: number }>();
  for (const attachment of attachments) {
    const { label, uri } = describeAttachment(attachment);
    const target = uri === undefined ? undefined : classifyLink(uri);
    if (target?.kind === 'file' && !targets.has(label)) {
      targets.set(
        label,
        target.line === undefined ? { path: target.path } : { path: target.path, line: target.line },
      );
    }
  }
  if (targets.size === 0) {
    return;
  }
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.parentElement?.closest('code, pre, a, button')
        ? NodeFilter.FILTER_REJECT
        : NodeFilter.FILTER_ACCEPT,
  });
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if ((node.textContent ?? '').includes('@')) {
      texts.push(node as Text);
    }
  }
  for (const text of texts) {
    const value = text.data;
    const parts: (string | HTMLElement)[] = [];
    let last = 0;
    for (const match of value.matchAll(MENTION)) {
      const name = match[1] ?? '';
      const target = targets.get(name);
      const at = match.index ?? 0;
      if (!target) {
        continue;
      }
      parts.push(value.slice(last, at));
      const link = document.createElement('button');
      link.type = 'button';
      link.className = 'mention-link';
      link.textContent = `@${name}`;
      link.title = target.path;
      link.addEventListener('click', () =>
        context.post({ type: 'open_file', path: target.path, ...(target.line ? { line: target.line } : {}) }),
      );
      parts.push(link);
      last = at + match[0].length;
    }
    if (parts.length > 0) {
      parts.push(value.slice(last));
      text.replaceWith(...parts);
    }
  }
}
