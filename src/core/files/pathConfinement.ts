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
    if (isLexicallyWithin(real, realRoot)) {
      return true;
    }
  }
  return false;
}

/**
 * Whether the path `candidate` is `root` or below it, by the names alone: no `..` hop out, no other
 * drive. It does not look at the disk, so a symlink below `root` passes; use `isInside` where an agent
 * may have planted links, and this where the paths are already real (git's, ours) or only sorted.
 */
export function isLexicallyWithin(candidate: string, root: string): boolean {
  const fold = (p: string): string =>
    process.platform === 'win32' || process.platform === 'darwin' ? p.toLowerCase() : p;
  const relative = path.relative(fold(root), fold(candidate));
  return (
    relative === '' ||
    (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
  );
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

/**
 * What a write, create or delete of `target` on the user's behalf would really touch, looked at just
 * before it is done: `in-place` — a regular file or nothing, reached through real folders only;
 * `replace` — the name itself is now a link or a special file (FIFO, socket, device), which is
 * removed and replaced, never written through; `refused` — a parent folder is now a link or a file
 * (so the write would land somewhere else, possibly outside the workspace), or the name is now a
 * folder: the path is left alone, `reason` says why in the user's words.
 */
export type WriteTarget =
  | { readonly kind: 'in-place' }
  | { readonly kind: 'replace'; readonly what: string }
  | { readonly kind: 'refused'; readonly reason: string };

/**
 * Checks `target` (absolute, inside workspace folder `root`) for a write, create or delete, one
 * component at a time without following any link below `root`. Call it immediately before acting:
 * the agent may have swapped a folder or the file for a link at any time since the checkpoint.
 */
export async function checkWriteTarget(target: string, root: string): Promise<WriteTarget> {
  const rel = path.relative(root, target);
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
    return { kind: 'refused', reason: 'it is not inside its workspace folder' };
  }
  let realRoot: string;
  try {
    realRoot = await resolveReal(root);
  } catch {
    return { kind: 'refused', reason: 'its workspace folder is a link that loops' };
  }
  const parts = rel.split(path.sep);
  const last = parts.pop() as string;
  let current = realRoot;
  let shown = '';
  for (const part of parts) {
    shown = shown === '' ? part : `${shown}/${part}`;
    const next = path.join(current, part);
    const info = await lstat(next).catch(() => undefined);
    if (info === undefined) {
      return { kind: 'in-place' }; // missing folders are created as real folders, inside
    }
    if (info.isSymbolicLink()) {
      return { kind: 'refused', reason: `${shown}/ is now ${await describeLink(next, realRoot)}` };
    }
    if (!info.isDirectory()) {
      return { kind: 'refused', reason: `${shown} is now a file, not a folder` };
    }
    current = next;
  }
  const info = await lstat(path.join(current, last)).catch(() => undefined);
  if (info === undefined || info.isFile()) {
    return { kind: 'in-place' };
  }
  if (info.isSymbolicLink()) {
    return { kind: 'replace', what: 'a link' };
  }
  if (info.isDirectory()) {
    return { kind: 'refused', reason: 'it is now a folder' };
  }
  return { kind: 'replace', what: 'a special file (FIFO, socket or device)' };
}

async function describeLink(link: string, realRoot: string): Promise<string> {
  try {
    const real = await resolveReal(link);
    return isLexicallyWithin(real, realRoot)
      ? 'a link to another folder of the workspace'
      : 'a link to a folder outside the workspace';
  } catch {
    return 'a link that loops';
  }
}
