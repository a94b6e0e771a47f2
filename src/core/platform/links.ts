import { hostPlatform, type EntryStats, type Platform } from './platform';

/**
 * What is at a path for "never through a link" rules: `link` is anything that sends the path
 * elsewhere — a symbolic link; on Windows also a directory junction (which any user can make, no
 * admin rights needed) and a mount point. `target` is where it points: the link's text (relative
 * to its folder, or absolute), or for a junction Node cannot read, the real path it leads to.
 */
export type DiskEntry =
  | { readonly kind: 'missing' }
  | { readonly kind: 'link'; readonly target: string | undefined }
  | { readonly kind: 'directory' | 'file' | 'special' };

const MISSING: DiskEntry = { kind: 'missing' };

/**
 * The entry at `file`, without following it. Node (libuv) reports a symbolic link, and a junction
 * to a drive path (`\??\C:\…`), as a link; a junction to a volume (`\??\Volume{…}\`) it reports as
 * a plain directory whose link it cannot read. On Windows, a directory is therefore also a link
 * when the directory itself (lstat) is not the one its path leads to (stat): different file ids.
 */
export async function entryAt(file: string, platform: Platform = hostPlatform()): Promise<DiskEntry> {
  let entry: EntryStats;
  try {
    entry = await platform.disk.lstat(file);
  } catch {
    return MISSING;
  }
  if (entry.isSymbolicLink()) {
    return { kind: 'link', target: await platform.disk.readlink(file).catch(() => undefined) };
  }
  if (entry.isDirectory()) {
    return platform.os === 'win32' && (await leadsElsewhere(file, entry, platform))
      ? { kind: 'link', target: await platform.disk.realpath(file).catch(() => undefined) }
      : { kind: 'directory' };
  }
  return { kind: entry.isFile() ? 'file' : 'special' };
}

async function leadsElsewhere(file: string, entry: EntryStats, platform: Platform): Promise<boolean> {
  try {
    const followed = await platform.disk.stat(file);
    return followed.ino !== entry.ino || followed.dev !== entry.dev;
  } catch {
    return true; // a redirection whose end cannot be reached: not a folder to go through
  }
}
