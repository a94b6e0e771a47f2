/** A position as editors report it: zero-based line and character. */
export interface EditorPosition {
  readonly line: number;
  readonly character: number;
}

/**
 * The `L<start>-L<end>` fragment (one-based, inclusive) of the lines a selection covers. A selection
 * that ends at the start of a line — what selecting whole lines produces — does not include that line:
 * lines 2–4 selected by dragging to the start of line 5 are `L2-L4`, not `L2-L5`.
 */
export function lineRangeFragment(start: EditorPosition, end: EditorPosition): string {
  const first = start.line + 1;
  const last = end.character === 0 && end.line > start.line ? end.line : end.line + 1;
  return first === last ? `L${first}` : `L${first}-L${last}`;
}
