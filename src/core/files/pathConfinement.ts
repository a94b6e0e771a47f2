import { constants } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { entryAt } from '../platform/links';
import { namesBelow, volumeOf } from '../platform/pathNames';
import { pathNameProblem } from '../platform/pathProblems';
import { hostPlatform, type Platform } from '../platform/platform';

/** Symlinks followed while resolving one path before it counts as a loop (as the OS does: ELOOP). */
const MAX_LINKS = 40;

/** A path whose links loop or chain too deep, or lead where they cannot be read: never inside anything. */
export class SymlinkLoopError extends Error {
  constructor(
    readonly target: string,
    why = 'Too many symbolic links',
  ) {
    super(`${why} while resolving ${target}.`);
    this.name = 'SymlinkLoopError';
  }
}

/**
 * Where a path really points, resolved one component at a time as the OS would at the moment of
 * access: every link is followed (a junction on Windows too) — also a dangling one, whose target is
 * then resolved in turn, and chains of them — and what does not exist yet is appended as written.
 * `..` is applied as the OS does: on POSIX to the real folder reached so far (so `link/../x` is next
 * to the link's target, not next to the link); on Windows by name, before anything is looked up
 * (Win32 and Node's fs both do). The existing part is finally spelled as the file system spells it
 * (case, 8.3 short names made long). With `volumes`, a link to another drive or share is not
 * followed there (the path is returned as it stands, outside): looking up `\\host\share` connects
 * to that host with the user's credentials.
 */
export async function resolveReal(
  target: string,
  platform: Platform = hostPlatform(),
  volumes?: ReadonlySet<string>,
): Promise<string> {
  const p = platform.path;
  // Not path.resolve() on POSIX: it would apply `..` lexically, before links are known.
  const joined = p.isAbsolute(target) ? target : `${process.cwd()}${p.sep}${target}`;
  const walk = new Walk(platform.os === 'win32' ? p.resolve(joined) : joined, platform);
  let links = 0;
  for (let part = walk.next(); part !== undefined; part = walk.next()) {
    if (part === '..') {
      walk.current = p.dirname(walk.current);
      continue;
    }
    const next = p.join(walk.current, part);
    const entry = await entryAt(next, platform);
    if (entry.kind !== 'link') {
      // Missing: later components cannot be links below it (but a `..` may climb back out).
      walk.current = next;
      continue;
    }
    if (++links > MAX_LINKS) {
      throw new SymlinkLoopError(target);
    }
    if (entry.target === undefined) {
      throw new SymlinkLoopError(target, `A link whose target cannot be read (${next})`);
    }
    walk.follow(entry.target);
    if (volumes !== undefined && !volumes.has(volumeOf(walk.current, platform))) {
      return walk.unresolved();
    }
  }
  return canonicalCase(walk.current, platform);
}

/** The components of a path still to resolve, and the folder reached so far. */
class Walk {
  current: string;
  private pending: string[];

  constructor(
    absolute: string,
    private readonly platform: Platform,
  ) {
    const root = platform.path.parse(absolute).root;
    this.current = root;
    this.pending = this.components(absolute.slice(root.length));
  }

  next(): string | undefined {
    let part = this.pending.shift();
    while (part === '' || part === '.') {
      part = this.pending.shift();
    }
    return part;
  }

  /** Goes on from a link found in `current`, to `target` and then what was left. */
  follow(target: string): void {
    const p = this.platform.path;
    if (this.platform.os === 'win32') {
      // Windows joins the target, `..` included, by name to the link's folder and the rest.
      const joined = p.resolve(this.current, target, ...this.pending);
      const root = p.parse(joined).root;
      this.current = root;
      this.pending = this.components(joined.slice(root.length));
      return;
    }
    const root = p.isAbsolute(target) ? p.parse(target).root : '';
    this.pending.unshift(...this.components(target.slice(root.length)));
    if (root !== '') {
      this.current = root;
    }
  }

  /** Where the walk stands with the rest appended as written. */
  unresolved(): string {
    return this.platform.path.join(this.current, ...this.pending);
  }

  private components(relative: string): string[] {
    return relative.split(this.platform.os === 'win32' ? /[\\/]+/ : /\/+/);
  }
}

/** The deepest existing ancestor as the file system spells it (no links remain to follow), plus the rest. */
async function canonicalCase(resolved: string, platform: Platform): Promise<string> {
  const p = platform.path;
  const rest: string[] = [];
  let existing = resolved;
  for (;;) {
    try {
      return p.join(await platform.disk.realpath(existing), ...rest.reverse());
    } catch {
      const parent = p.dirname(existing);
      if (parent === existing) {
        return resolved;
      }
      rest.push(p.basename(existing));
      existing = parent;
    }
  }
}

/**
 * Whether `target` is inside one of `roots` once `..` and links are resolved on both sides — an
 * agent must not reach outside the workspace by a link, a junction, a dangling link, or a relative
 * hop. The two real paths are compared exactly: the file system spelled both, and folding case would
 * take a sibling `WS` for `ws` on a case-sensitive volume. Inside nothing: a path whose links loop, a
 * path Windows would not take as written (`pathNameProblem`), a path on another drive or share than
 * every root (never looked at).
 */
export async function isInside(
  target: string,
  roots: readonly string[],
  platform: Platform = hostPlatform(),
): Promise<boolean> {
  const volumes = new Set(roots.map((root) => volumeOf(root, platform)));
  if (pathNameProblem(target, platform) !== undefined || !volumes.has(volumeOf(target, platform))) {
    return false;
  }
  let real: string;
  try {
    real = await resolveReal(target, platform, volumes);
  } catch (error) {
    if (error instanceof SymlinkLoopError) {
      return false;
    }
    throw error;
  }
  for (const root of roots) {
    const realRoot = await resolveReal(root, platform);
    if (namesBelow(real, realRoot, platform, 'exact') !== undefined) {
      return true;
    }
  }
  return false;
}

/**
 * Whether the path `candidate` is `root` or below it, by the names alone, compared as the system's
 * file system compares names (case on Windows and macOS, `\` and `/` on Windows): no `..` hop out, no
 * other drive. It does not look at the disk, so a symlink below `root` passes; use `isInside` where an
 * agent may have planted links, and this where the paths are already real (git's, ours) or only sorted.
 */
export function isLexicallyWithin(
  candidate: string,
  root: string,
  platform: Platform = hostPlatform(),
): boolean {
  return namesBelow(candidate, root, platform) !== undefined;
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
  // Windows has no O_NOFOLLOW; the identity check below catches a swapped link there.
  const noFollow = hostPlatform().os === 'win32' ? 0 : constants.O_NOFOLLOW;
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
    // bigint: an NTFS file id does not fit a double, and two rounded ids could pass for one file.
    const [opened, again] = await Promise.all([handle.stat({ bigint: true }), resolveReal(real)]);
    const named = await stat(again, { bigint: true });
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
export async function checkWriteTarget(
  target: string,
  root: string,
  platform: Platform = hostPlatform(),
): Promise<WriteTarget> {
  const parts = namesBelow(target, root, platform);
  if (parts === undefined || parts.length === 0) {
    return { kind: 'refused', reason: 'it is not inside its workspace folder' };
  }
  const problem = pathNameProblem(target, platform);
  if (problem !== undefined) {
    return { kind: 'refused', reason: `its path ${problem}` };
  }
  let realRoot: string;
  try {
    realRoot = await resolveReal(root, platform);
  } catch {
    return { kind: 'refused', reason: 'its workspace folder is a link that loops' };
  }
  const last = parts.pop() as string;
  let current = realRoot;
  let shown = '';
  for (const part of parts) {
    shown = shown === '' ? part : `${shown}/${part}`;
    const next = platform.path.join(current, part);
    const entry = await entryAt(next, platform);
    if (entry.kind === 'missing') {
      return { kind: 'in-place' }; // missing folders are created as real folders, inside
    }
    if (entry.kind === 'link') {
      return { kind: 'refused', reason: `${shown}/ is now ${await describeLink(next, realRoot, platform)}` };
    }
    if (entry.kind !== 'directory') {
      return { kind: 'refused', reason: `${shown} is now a file, not a folder` };
    }
    current = next;
  }
  return finalEntry(await entryAt(platform.path.join(current, last), platform));
}

function finalEntry(entry: Awaited<ReturnType<typeof entryAt>>): WriteTarget {
  switch (entry.kind) {
    case 'missing':
    case 'file':
      return { kind: 'in-place' };
    case 'link':
      return { kind: 'replace', what: 'a link' };
    case 'directory':
      return { kind: 'refused', reason: 'it is now a folder' };
    default:
      return { kind: 'replace', what: 'a special file (FIFO, socket or device)' };
  }
}

async function describeLink(link: string, realRoot: string, platform: Platform): Promise<string> {
  try {
    const real = await resolveReal(link, platform);
    return namesBelow(real, realRoot, platform, 'exact') !== undefined
      ? 'a link to another folder of the workspace'
      : 'a link to a folder outside the workspace';
  } catch {
    return 'a link that loops';
  }
}
