/** Where a hunk is, for moving between hunks: its file and its lines in the editor (inclusive). */
export interface HunkPlace {
  readonly path: string;
  readonly anchor: number;
  /** The last line it spans: its last added line, or its anchor when it only removes. */
  readonly last: number;
}

/** Where the cursor is: the active editor's file and line. */
export interface Cursor {
  readonly path: string;
  readonly line: number;
}

/**
 * The hunk the cursor is "in": the last one of its file that starts at or above it (the file's first when
 * the cursor is above them all); undefined when its file has none.
 */
export function hunkAtCursor(places: readonly HunkPlace[], cursor: Cursor | undefined): number | undefined {
  if (cursor === undefined) {
    return undefined;
  }
  let first: number | undefined;
  let at: number | undefined;
  places.forEach((place, index) => {
    if (place.path === cursor.path) {
      first ??= index;
      if (place.anchor <= cursor.line) {
        at = index;
      }
    }
  });
  return at ?? first;
}

/**
 * The hunk Next (1) or Previous (-1) goes to, as the editor's own change navigation does: the nearest one
 * after or before the cursor, wrapping around the turn's files; a hunk the cursor is on is left for its
 * neighbour. Undefined when there is none.
 */
export function hunkToGo(
  places: readonly HunkPlace[],
  cursor: Cursor | undefined,
  step: 1 | -1,
): number | undefined {
  if (places.length === 0) {
    return undefined;
  }
  const here = hunkAtCursor(places, cursor);
  const place = here === undefined ? undefined : places[here];
  if (here === undefined || place === undefined || cursor === undefined) {
    return step === 1 ? 0 : places.length - 1;
  }
  // Above the hunk it is "in" (the file's first): Next goes there. Below its last line: Previous does.
  const above = cursor.line < place.anchor;
  const below = cursor.line > place.last;
  if ((step === 1 && above) || (step === -1 && below)) {
    return here;
  }
  return (here + step + places.length) % places.length;
}
