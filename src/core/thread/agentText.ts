import stripAnsi from 'strip-ansi';
import { scrubSecrets } from '../secrets/secrets';

/**
 * Agent text made plain for a person or a log line: terminal escapes (colour, OSC 8 links, clear
 * screen) removed, control characters removed, and bidirectional overrides — which can make text
 * read differently from what it is — shown as a visible `‹U+202E›` mark. Newlines and tabs stay.
 */
export function plainText(text: string): string {
  return (
    stripAnsi(text)
      // C0 controls but \t and \n, DEL, and C1 controls (a lone \r is dropped too: it rewrites a line).
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')
      .replace(
        /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g,
        (char) => `‹U+${char.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}›`,
      )
  );
}

/** How much of an agent's error message is shown or logged (its data has its own bound). */
export const MAX_AGENT_MESSAGE_CHARS = 2000;

/** `text` cut to `limit` characters, with a marker saying how much was cut. */
export function boundedText(text: string, limit: number): string {
  if (text.length <= limit) {
    return text;
  }
  const cut = text.length - limit;
  return `${text.slice(0, limit)}… [cut: ${cut.toLocaleString('en-US')} more characters]`;
}

/** Agent text for the chat, the log, the journal or a report: secrets scrubbed, plain, bounded. */
export function safeAgentText(text: string, limit = MAX_AGENT_MESSAGE_CHARS): string {
  // Plain before scrubbing (an escape inside a value would hide it); scrubbed before cut (no half secret).
  return boundedText(scrubSecrets(plainText(text)), limit);
}

/** `text` as a sentence that can be followed by another: trimmed, ending in a full stop (or its own ! ? …). */
export function sentence(text: string): string {
  const trimmed = text.trim();
  return trimmed === '' || /[.!?…]["'”’)\]]*$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
