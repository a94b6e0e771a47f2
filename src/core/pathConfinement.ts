import { constants, realpath } from 'node:fs';
import { lstat, open, readlink, stat, type FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';

/** The OS's own realpath: on case-insensitive file systems it returns the stored spelling. */
const realpathNative = promisify(realpath.native);

/** Symlinks followed while resolving one path before it counts as a loop (as the OS does: ELOOP). */
const MAX_LINKS = 40;

/** A path whose links loop or chain too deep: never inside anything. */
export class SymlinkLoopError extends Error {
  constructor(readonly target: string) {
    super(`Too many symbolic links while resolving ${target}.`);
    this.name = 'SymlinkLoopError';
  }
}

/**
 * Where a path really points, resolved one component at a time as the OS would at the moment of
 * access: `..` applies to the real folder reached so far (so `link/../x` is next to the link's
 * target, not next to the link), every symlink is followed — also a dangling one, whose target is
 * then resolved in turn, and chains of them — and what does not exist yet is appended as written.
 * The existing part is finally spelled as the file system spells it (case on case-insensitive
 * file systems).
 */
export async function resolveReal(target: string): Promise<string> {
  // Not path.resolve(): it would apply `..` lexically, before links are known.
  const absolute = path.isAbsolute(target) ? target : `${process.cwd()}${path.sep}${target}`;
  const root = path.parse(absolute).root;
  const pending = components(absolute.slice(root.length));
  let current = root;
  let links = 0;
  while (pending.length > 0) {
    const part = pending.shift() as string;
    if (part === '' || part === '.') {
      continue;
    }
    if (part === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, part);
    const stat = await lstat(next).catch(() => undefined);
    if (stat?.isSymbolicLink()) {
      if (++links > MAX_LINKS) {
        throw new SymlinkLoopError(target);
      }
      const link = await readlink(next);
      pending.unshift(...components(path.isAbsolute(link) ? link.slice(path.parse(link).root.length) : link));
      if (path.isAbsolute(link)) {
        current = path.parse(link).root;
      }
      continue;
    }
    // Missing: later components cannot be links below it (but a `..` may climb back out).
    current = next;
  }
  return canonicalCase(current);
}

function components(relative: string): string[] {
  return relative.split(process.platform === 'win32' ? /[\\/]+/ : /\/+/);
}

/** The deepest existing ancestor as the file system spells it (no links remain to follow), plus the rest. */
async function canonicalCase(resolved: string): Promise<string> {
  const rest: string[] = [];
  let existing = resolved;
  for (;;) {
    try {
      return path.join(await realpathNative(existing), ...rest.reverse());
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) {
        return resolved;
      }
      rest.push(path.basename(existing));
      existing = parent;
    }
  }
}

/**
 * Whether `target` is inside one of `roots` once `..` and symlinks are resolved on both sides —
 * an agent must not reach outside the workspace by a link, a dangling link, or a relative hop. A
 * path whose links loop is inside nothing.
 */
export async function isInside(target: string, roots: readonly string[]): Promise<boolean> {
  let real: string;
  try {
    real = await resolveReal(target);
  } catch (error) {
    if (error instanceof SymlinkLoopError) {
      return false;
    }
    throw error;
  }
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

/** The file changed under us between the check and the open: refused rather than read. */
export class ConfinementRaceError extends Error {
  constructor(readonly target: string) {
    super(`${target} changed while it was being opened (a link was swapped in); access refused.`);
    this.name = 'ConfinementRaceError';
  }
}

/**
 * Opens `target` for reading only if it is inside `roots` at the moment of access: the path is
 * resolved, the real path is opened without following a final symlink, and after the open the
 * real path is resolved again and must still name the very file the handle holds (same device
 * and inode). A link swapped in between the check and the open is caught either way. Returns
 * undefined when the target is outside (the caller decides whether to ask the user).
 */
export async function openInside(target: string, roots: readonly string[]): Promise<FileHandle | undefined> {
  if (!(await isInside(target, roots))) {
    return undefined;
  }
  return openVerified(await resolveReal(target), roots, target);
}

/**
 * The open-then-verify half of `openInside`, for a path already resolved (and found inside):
 * whatever changed since that check is caught here.
 */
export async function openVerified(
  real: string,
  roots: readonly string[],
  target = real,
): Promise<FileHandle> {
  const noFollow = process.platform === 'win32' ? 0 : constants.O_NOFOLLOW;
  let handle: FileHandle;
  try {
    handle = await open(real, constants.O_RDONLY | noFollow);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
      throw new ConfinementRaceError(target);
    }
    throw error;
  }
  try {
    const [opened, again] = await Promise.all([handle.stat(), resolveReal(real)]);
    const named = await stat(again);
    if (
      again !== real ||
      opened.ino !== named.ino ||
      opened.dev !== named.dev ||
      !(await isInside(again, roots))
    ) {
      throw new ConfinementRaceError(target);
    }
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}
