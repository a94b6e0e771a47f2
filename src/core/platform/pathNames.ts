import { hostPlatform, type Platform } from './platform';

/**
 * Paths compared by their names alone, as each system's default file system compares them:
 * Windows (NTFS) ignores case, drive letters included, and takes `/` and `\` alike; macOS (APFS,
 * HFS+) ignores case and Unicode normalization (`é` typed or composed); Linux compares bytes.
 */

/** How the default file system of `platform` would see a name: a key two names share iff it takes them for one. */
export function nameKey(name: string, platform: Platform = hostPlatform()): string {
  switch (platform.os) {
    case 'win32':
      return simpleUpperCase(name);
    case 'darwin':
      return simpleUpperCase(name.normalize('NFD'));
    default:
      return name;
  }
}

/**
 * Upper case one code point at a time, keeping any whose upper case is longer (`ß` stays `ß`, as
 * in NTFS's table, where `toUpperCase()` would make it `SS` and merge it with `ss`).
 */
function simpleUpperCase(text: string): string {
  // eslint-disable-next-line no-control-regex -- ASCII, the common case, maps one to one
  if (/^[\u0000-\u007f]*$/.test(text)) {
    return text.toUpperCase();
  }
  let folded = '';
  for (const char of text) {
    const upper = char.toUpperCase();
    folded += [...upper].length === 1 ? upper : char;
  }
  return folded;
}

interface SplitPath {
  /** The root as the system would compare it (`C:\`, `\\server\share\`, `/`). */
  readonly rootKey: string;
  readonly parts: readonly string[];
}

/** An absolute path's root and names, `..` and `.` applied by name (as `path.resolve` does). */
function split(file: string, platform: Platform): SplitPath {
  const p = platform.path;
  const resolved = p.resolve(file);
  const root = p.parse(resolved).root;
  const parts = resolved
    .slice(root.length)
    .split(platform.os === 'win32' ? /[\\/]+/ : /\/+/)
    .filter((part) => part !== '');
  return { rootKey: nameKey(p.normalize(root), platform), parts };
}

/** How names are compared: as the system's default file system does, or byte for byte. */
export type NameComparison = 'as-the-system' | 'exact';

/**
 * The names of `candidate` below `root` as `candidate` spells them, or undefined when it is not
 * `root` or below it. By the names alone: nothing on disk is looked at, `..` is applied to the
 * names (so `root\..\x` is outside), another drive or share is outside. `exact` compares byte for
 * byte: for two paths both spelled by the file system itself (real paths), where folding would take
 * `WS` for `ws` on a case-sensitive volume.
 */
export function namesBelow(
  candidate: string,
  root: string,
  platform: Platform = hostPlatform(),
  comparison: NameComparison = 'as-the-system',
): string[] | undefined {
  const under = split(root, platform);
  const path = split(candidate, platform);
  const key = comparison === 'exact' ? (name: string) => name : (name: string) => nameKey(name, platform);
  if (key(under.rootKey) !== key(path.rootKey) || path.parts.length < under.parts.length) {
    return undefined;
  }
  for (const [index, name] of under.parts.entries()) {
    if (key(name) !== key(path.parts[index] as string)) {
      return undefined;
    }
  }
  return path.parts.slice(under.parts.length);
}

/** Whether `a` and `b` name the same path for the system (by the names alone). */
export function isSamePath(a: string, b: string, platform: Platform = hostPlatform()): boolean {
  return namesBelow(a, b, platform)?.length === 0;
}

/** The drive or share a path is on (`C:\`, `\\server\share\`; `/` on POSIX), as the system compares it. */
export function volumeOf(file: string, platform: Platform = hostPlatform()): string {
  return split(file, platform).rootKey;
}
