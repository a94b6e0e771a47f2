/**
 * The cheap case of a streaming tail: a paragraph that only grows by plain words. Re-parsing the
 * tail every frame costs its length; when the new text cannot change how anything before it
 * renders, nor start any markdown of its own, it is appended to the paragraph's DOM as text.
 *
 * Plain text here means letters, digits, spaces and a few punctuation marks that are never
 * markdown inside a line (no `*_~\`[]<>&\\|#=+():/@`, no newline). A full stop only counts when a
 * space follows it in the same delta: "example.com" could become a link. Text that touches what
 * was shown (no space between them) also needs the shown text's last word to be plain, so that an
 * emphasis delimiter, an entity, a link or a linkified address before it cannot change meaning.
 */

/** Letters and digits of any script, spaces, and punctuation that is literal inside a line. */
const PLAIN = /^(?:[\p{L}\p{N} ,;'"?!-]|\.(?= ))*$/u;
/** The shown text's current line starts a paragraph line, not a list, heading, quote or table. */
const LINE_STARTS_WITH_LETTER = /^ *\p{L}/u;
const PLAIN_WORD = /^[\p{L}\p{N}]*$/u;

/**
 * What to append to a paragraph rendered from `shown` so that it equals the render of
 * `shown + added`: the text (possibly empty), or undefined when only a re-parse can tell.
 * The caller guarantees `shown` rendered as exactly one paragraph.
 */
export function plainContinuation(shown: string, added: string): string | undefined {
  if (!PLAIN.test(added)) {
    return undefined;
  }
  const line = shown.slice(shown.lastIndexOf('\n') + 1);
  if (!LINE_STARTS_WITH_LETTER.test(line)) {
    return undefined;
  }
  const kept = shown.trimEnd();
  // markdown-it trims the paragraph's end: what the shown text ended in comes back once more follows.
  const pending = shown.slice(kept.length);
  if (pending === '' && !added.startsWith(' ')) {
    const lastWord = kept.slice(kept.lastIndexOf(' ') + 1);
    if (!PLAIN_WORD.test(lastWord)) {
      return undefined;
    }
  }
  return (pending + added).trimEnd();
}
