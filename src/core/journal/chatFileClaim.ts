import { fingerprintOf, ABSENT } from './journalFiles';
import type { LockOwner, WriterLocks } from './journalLock';

/** Suffix of the lock naming the window that writes a chat. */
const LOCK = '.lock';

/** The lock file of the chat journaled in `file`. */
export function chatLockPath(file: string): string {
  return `${file}${LOCK}`;
}

/** A write this window must not do (another window owns the chat); held and retried like a failure. */
export class SaveRefused extends Error {}

/**
 * Before every write of a chat's file (not only when the lock is taken): this window's lock on it, and
 * proof that the file is still what this window read or wrote (`known`: its fingerprint; unset, it must
 * not exist — read or refuse). A file another window changed or deleted since (its lock stale, or this
 * one's removed) is not written over, so a compaction never drops lines this window did not read.
 * Throws `SaveRefused` with the reason.
 */
export async function claimChatFile(locks: WriterLocks, file: string, known: string | undefined): Promise<void> {
  const lockPath = chatLockPath(file);
  const lock = await locks.acquire(lockPath);
  if (!lock.held) {
    throw new SaveRefused(`it is open for writing in another window (${ownerText(lock.owner)})`);
  }
  if ((await fingerprintOf(file)) !== (known ?? ABSENT)) {
    // Writing on would drop or tangle the other window's lines (or bring back a chat it deleted).
    locks.release(lockPath);
    throw new SaveRefused(
      'another window changed or deleted it since this window read it; reload this window to save it again',
    );
  }
}

function ownerText(owner: LockOwner | undefined): string {
  return owner ? `process ${owner.pid} on ${owner.host}` : 'its lock is being written';
}
