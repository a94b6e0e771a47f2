import { realpath } from 'node:fs/promises';
import * as path from 'node:path';

/**
 * Where a path really points, following `..` and symlinks (also of folders that do not exist
 * yet: the deepest existing ancestor is resolved and the rest appended).
 */
export async function resolveReal(target: string): Promise<string> {
  let existing = path.resolve(target);
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(await realpath(existing), ...rest.reverse());
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) {
        return path.resolve(target);
      }
      rest.push(path.basename(existing));
      existing = parent;
    }
  }
}

/**
 * Whether `target` is inside one of `roots` once `..` and symlinks are resolved on both sides —
 * an agent must not reach outside the workspace by a link or a relative hop.
 */
export async function isInside(target: string, roots: readonly string[]): Promise<boolean> {
  const real = await resolveReal(target);
  for (const root of roots) {
    const realRoot = await resolveReal(root);
    if (isSameOrBelow(real, realRoot)) {
      return true;
    }
  }
  return false;
}

function isSameOrBelow(candidate: string, root: string): boolean {
  const fold = (p: string): string =>
    process.platform === 'win32' || process.platform === 'darwin' ? p.toLowerCase() : p;
  const relative = path.relative(fold(root), fold(candidate));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
