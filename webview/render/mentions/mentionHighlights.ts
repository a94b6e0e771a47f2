import type { AttachmentRef } from '../../../src/protocol';
import { el } from '../dom';

/**
 * Shows each "@name" of a picked mention as a chip inside the composer's text: a mirror of the
 * textarea (same box, font and wrapping, text transparent) lies behind it and paints a chip behind
 * every mention's characters. The textarea stays a plain textarea — typing, IME, undo and the
 * combobox keep working — and the mirror is hidden from assistive technology (the chips above the
 * text carry the names).
 */
export class MentionHighlights {
  readonly element = el('div', 'composer-mirror');
  private shown = '';

  constructor(private readonly input: HTMLTextAreaElement) {
    this.element.setAttribute('aria-hidden', 'true');
    input.addEventListener('scroll', () => {
      this.element.scrollTop = input.scrollTop;
    });
  }

  /** Repaints for the current text and mentions (cheap when neither changed). */
  update(attachments: readonly AttachmentRef[]): void {
    const value = this.input.value;
    const names = [...new Set(attachments.filter((a) => a.kind !== undefined).map((a) => `@${a.name}`))];
    const key = `${names.join('\u0000')}\u0001${value}`;
    if (key === this.shown) {
      return;
    }
    this.shown = key;
    const parts: (string | HTMLElement)[] = [];
    let at = 0;
    while (names.length > 0 && at < value.length) {
      let next = -1;
      let name = '';
      for (const candidate of names) {
        const found = value.indexOf(candidate, at);
        if (found >= 0 && (next < 0 || found < next || (found === next && candidate.length > name.length))) {
          next = found;
          name = candidate;
        }
      }
      if (next < 0) {
        break;
      }
      parts.push(value.slice(at, next), el('mark', 'mention-highlight', name));
      at = next + name.length;
    }
    // A trailing newline needs a character after it to take up its line, as in the textarea.
    parts.push(`${value.slice(at)}\u200b`);
    this.element.replaceChildren(...parts);
    // An empty box and its mirror show from their top once laid out; reading the box's scroll now would
    // lay the whole page out in Send's keydown, before the message leaves.
    if (value !== '') {
      this.element.scrollTop = this.input.scrollTop;
    }
  }
}
