/**
 * The part of `text` that ACP's `fs/read_text_file` asks for: `limit` lines starting at the
 * 1-based `line`. Line endings are kept as they are.
 */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if ((line === undefined || line === null) && (limit === undefined || limit === null)) {
    return text;
  }
  const start = Math.max(1, line ?? 1) - 1;
  let offset = 0;
  for (let i = 0; i < start; i++) {
    const next = text.indexOf('\n', offset);
    if (next === -1) {
      return '';
    }
    offset = next + 1;
  }
  if (limit === undefined || limit === null) {
    return text.slice(offset);
  }
  let end = offset;
  for (let i = 0; i < limit; i++) {
    const next = text.indexOf('\n', end);
    if (next === -1) {
      return text.slice(offset);
    }
    end = next + 1;
  }
  return text.slice(offset, end);
}
