/** `rel` as a pathspec that matches exactly that path (no wildcards, no magic in the name). */
export function toLiteralPathspec(rel: string): string {
  return `:(literal)${rel}`;
}

/** A pathspec that leaves out `rel` (a file, or a folder with everything in it). */
export function excludePathspec(rel: string): string {
  return `:(exclude,literal)${rel.endsWith('/') ? rel.slice(0, -1) : rel}`;
}
