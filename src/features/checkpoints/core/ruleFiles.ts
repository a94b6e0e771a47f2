import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { Logger } from '../../../core/ports';
import type { FolderStamps } from './folderStamps';
import type { SkipList } from './skipList';

/** The per-folder files git opens while it walks a work tree. */
const RULE_FILES = new Set(['.gitignore', '.gitattributes']);
/** Directories read at once. */
const READDIR_BATCH = 32;

/** A folder whose ignore or attributes file git must not open, and what that file is. */
export interface UnreadableRules {
  /** `/`-separated from the folder root, ending in `/`; `''` for the root itself. */
  readonly dir: string;
  readonly file: string;
  readonly what: string;
}

/**
 * The folders of the work tree whose `.gitignore` or `.gitattributes` is a FIFO, socket or device (or
 * a link to one): git opens these without a timeout, and opening a FIFO waits for a writer forever.
 * Found by reading directories only (their entries' types come with them), never opening the files.
 * `skip` names directories not to enter (`/`-separated, ending in `/`): `.git`, nested repositories,
 * folders git ignores — git does not read their rule files either. `stamps`, when given, gets each
 * folder read (stamped before it is read) and each rule file found.
 */
export async function findUnreadableRules(
  folder: string,
  skip: (dir: string) => boolean,
  stamps?: FolderStamps,
): Promise<UnreadableRules[]> {
  const found: UnreadableRules[] = [];
  let pending = [''];
  while (pending.length > 0) {
    const batch = pending.slice(0, READDIR_BATCH);
    pending = pending.slice(READDIR_BATCH);
    if (stamps !== undefined) {
      await stamps.addFolders(batch);
    }
    const listed = await Promise.all(batch.map((dir) => list(path.join(folder, dir))));
    for (const [index, entries] of listed.entries()) {
      const dir = batch[index]!;
      for (const entry of entries) {
        const rel = `${dir}${entry.name}`;
        if (entry.isDirectory()) {
          if (entry.name !== '.git' && !skip(`${rel}/`)) {
            pending.push(`${rel}/`);
          }
        } else if (RULE_FILES.has(entry.name)) {
          await stamps?.addRuleFile(rel);
          const what = await kindOf(entry, path.join(folder, rel));
          if (what !== undefined) {
            found.push({ dir, file: entry.name, what });
          }
        }
      }
    }
  }
  return found;
}

/** What a rule file is when git must not open it; `undefined` for a file (or a link to one, or gone). */
async function kindOf(entry: Dirent, absolute: string): Promise<string | undefined> {
  if (entry.isFile()) {
    return undefined;
  }
  if (entry.isSymbolicLink()) {
    try {
      // stat, not open: following the link to see what it names never blocks.
      const target = await stat(absolute);
      return target.isFile() || target.isDirectory() ? undefined : `a link to ${describe(target)}`;
    } catch {
      return undefined; // a dangling link: git finds nothing to open
    }
  }
  return describe(entry);
}

function describe(entry: {
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): string | undefined {
  return entry.isFIFO()
    ? 'a FIFO'
    : entry.isSocket()
      ? 'a socket'
      : entry.isCharacterDevice() || entry.isBlockDevice()
        ? 'a device'
        : undefined;
}

async function list(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch {
    return []; // gone, or not readable: git cannot read it either
  }
}

/**
 * Finds the folders whose `.gitignore` / `.gitattributes` git must not open and puts them in the skip
 * list (left out of snapshots; the card names them); returns them. The folder's own rule files make
 * the checkpoint fail, with the reason: nothing of it can be snapshotted safely.
 */
export async function leaveOutUnreadableRules(
  folder: string,
  skipList: SkipList,
  /** The folders git ignored at the last snapshot: it does not enter them, nor does the walk. */
  ignored: ReadonlySet<string>,
  logger: Logger,
  stamps?: FolderStamps,
): Promise<string[]> {
  // A folder left out for its rules is also "ignored" by our own exclude: it is looked at again.
  const leftOut = new Set(skipList.ruleFolders());
  const found = await findUnreadableRules(
    folder,
    (dir) => skipList.isRepository(dir) || (ignored.has(dir) && !leftOut.has(dir)),
    stamps,
  );
  const root = found.find((rules) => rules.dir === '');
  if (root !== undefined) {
    throw new Error(
      `the folder's ${root.file} is ${root.what}, not a file: git would wait on it forever, so the folder is not snapshotted`,
    );
  }
  for (const rules of found) {
    logger.warn(`Checkpoints leave out ${rules.dir} of ${folder}: its ${rules.file} is ${rules.what}.`);
  }
  const dirs = [...new Set(found.map((rules) => rules.dir))];
  await skipList.setRuleFolders(dirs);
  return dirs;
}
