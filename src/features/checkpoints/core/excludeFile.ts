import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { readRegularFile } from './fileContent';

/**
 * The shadow repository's `info/attributes`, which wins over every `.gitattributes` in the folder:
 * no end-of-line conversion, no clean/smudge filter, no `ident`, no re-encoding — a checkpoint keeps
 * exactly the bytes on disk. `diff` is left to the folder so its `binary` marks still count.
 */
export const SHADOW_ATTRIBUTES = '* -text -filter -ident -working-tree-encoding !eol\n';

/**
 * `rel` (a `/`-separated path from the folder root) as an exclude pattern that matches only that file:
 * anchored with a leading `/`, every wildcard and space escaped. `undefined` when a pattern cannot say
 * it (a newline in the name); such a file is excluded per command instead.
 */
export function toExcludePattern(rel: string): string | undefined {
  if (/[\r\n]/.test(rel)) {
    return undefined;
  }
  return `/${rel.replace(/[\\*?[\] !#]/g, (char) => `\\${char}`)}`;
}

/**
 * The text of the shadow's `info/exclude`: always `.git` (the user's repository is never snapshotted),
 * then the user's own `.git/info/exclude`, then the files skipped for their size.
 */
export function buildExcludeFile(userExclude: string, skipped: Iterable<string>): string {
  const lines = ['# Written by ACP Agents: the shadow repository of checkpoints.', '.git'];
  if (userExclude.trim() !== '') {
    lines.push("# The workspace repository's .git/info/exclude:", userExclude.trimEnd());
  }
  const patterns = [...skipped].map(toExcludePattern).filter((pattern) => pattern !== undefined);
  if (patterns.length > 0) {
    lines.push('# Skipped: too large, or binary and large.', ...patterns.sort());
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The folder's own `info/exclude` when the folder is the top of a git repository (`.git` a directory,
 * or a worktree's `.git` file pointing at one). Only read; empty when there is none.
 */
export async function readUserExclude(folder: string): Promise<string> {
  const dotGit = path.join(folder, '.git');
  // Nearly every repository has `.git` a directory with no `commondir`: its exclude file is read while
  // those two are looked at, so a checkpoint (and the proof at Send) waits for one read, not three in turn.
  const [info, common, exclude] = await Promise.allSettled([
    stat(dotGit),
    readSmallFile(path.join(dotGit, 'commondir')),
    readSmallFile(path.join(dotGit, 'info', 'exclude')),
  ]);
  if (info.status === 'rejected') {
    return '';
  }
  if (info.value.isDirectory() && common.status === 'rejected') {
    return exclude.status === 'fulfilled' ? exclude.value : '';
  }
  try {
    const gitDir = info.value.isDirectory() ? dotGit : await gitDirFromFile(dotGit, folder);
    if (gitDir === undefined) {
      return '';
    }
    return await readSmallFile(path.join(await commonDir(gitDir), 'info', 'exclude'));
  } catch {
    return '';
  }
}

async function gitDirFromFile(dotGitFile: string, folder: string): Promise<string | undefined> {
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(await readSmallFile(dotGitFile));
  return match?.[1] === undefined ? undefined : path.resolve(folder, match[1]);
}

/** A linked worktree keeps `info/` in the main repository's directory, named by its `commondir` file. */
async function commonDir(gitDir: string): Promise<string> {
  try {
    const common = (await readSmallFile(path.join(gitDir, 'commondir'))).trim();
    return path.resolve(gitDir, common);
  } catch {
    return gitDir;
  }
}

/** More than any real exclude or `.git` file: a bigger one is not read. */
const MAX_READ_BYTES = 1024 * 1024;

/** A small regular file's text; a FIFO, socket, device or oversized file throws (the caller: absent). */
async function readSmallFile(file: string): Promise<string> {
  return (await readRegularFile(file, MAX_READ_BYTES)).toString('utf8');
}
