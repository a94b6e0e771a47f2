import { link, open, rm, stat, type FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { HeldFileError, removeWhenFree, renameWhenFree, type HeldFileWait } from '../platform/heldFiles';

/** Suffix of the journal a compaction replaced (not `.jsonl`: it is not a chat of its own). */
export const PREVIOUS = '.prev';

/**
 * Replaces `target` by `text` durably: a temp file, fsynced, renamed over it. The journal being
 * replaced stays as `.prev` until the next compaction: should the new snapshot line ever prove
 * unreadable, the history is rebuilt from it. On Windows the rename and the delete wait while
 * another program holds the file (`renameWhenFree`); if it keeps holding it, the journal is left
 * as it was and the temp file goes.
 */
export async function replaceFile(target: string, text: string, wait: HeldFileWait = {}): Promise<void> {
  const temp = `${target}.${process.pid}.tmp`;
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await removeWhenFree(`${target}${PREVIOUS}`, wait);
    await link(target, `${target}${PREVIOUS}`).catch(() => {});
    await renameWhenFree(temp, target, wait);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncFolder(path.dirname(target));
}

/** Appends in one write; returns the file's fingerprint after it. */
export async function appendLines(file: string, text: string): Promise<string> {
  const handle = await open(file, 'a+');
  try {
    // A torn previous line must not swallow this record: start on a fresh line.
    const prefix = (await handle.stat()).size > 0 && !(await endsWithNewline(handle)) ? '\n' : '';
    await handle.write(prefix + text, null, 'utf8');
    await handle.sync();
    return fingerprint(await handle.stat());
  } finally {
    await handle.close();
  }
}

/** The fingerprint of a file that does not exist. */
export const ABSENT = 'absent';

export async function fingerprintOf(file: string): Promise<string> {
  return stat(file).then(fingerprint, () => ABSENT);
}

export function fingerprint(s: { ino: number; size: number; mtimeMs: number }): string {
  return `${s.ino}:${s.size}:${s.mtimeMs}`;
}

/** Makes a rename in `folder` durable (where the platform allows opening a folder). */
async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Windows cannot open a folder for sync; the rename is as durable as it gets there.
  }
}

async function endsWithNewline(handle: FileHandle): Promise<boolean> {
  const { size } = await handle.stat();
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

/** Why a write failed, in the user's words (the end of "This chat is not being saved: …"). */
export function writeFailureReason(error: unknown): string {
  if (error instanceof HeldFileError) {
    return 'another program keeps its file open (an antivirus scan, a backup or another window)';
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return 'its folder cannot be written (permission denied or read-only)';
  }
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return 'the disk is full';
  }
  return error instanceof Error ? error.message : String(error);
}
