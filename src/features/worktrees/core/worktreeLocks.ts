import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { WriterLocks, type LockOwner } from '../../../core/journal/journalLock';
import { nameKey } from '../../../core/platform/pathNames';
import type { Disposable } from '../../../core/util/disposable';

/** Whether this window may let an agent write a worktree, or who does. */
export type WorktreeHold = { readonly held: true } | { readonly held: false; readonly owner?: LockOwner };

/**
 * One window at a time lets an agent write a worktree: a lock file per worktree (its path hashed) in the
 * extension's global storage, which every window of this user shares whatever folder it opened — the
 * journal's writer lock (pid and host; a crashed window's lock is stale and taken over). A window keeps
 * the lock of each worktree chat it works with until the chat goes or the window closes.
 */
export class WorktreeLocks implements Disposable {
  private readonly locks: WriterLocks;

  constructor(
    private readonly folder: string,
    options: { readonly staleAfterMs?: number } = {},
  ) {
    this.locks = new WriterLocks(
      options.staleAfterMs === undefined ? {} : { staleAfterMs: options.staleAfterMs },
    );
  }

  /** Takes the lock of `worktree` for this window, or says which process holds it. */
  async hold(worktree: string): Promise<WorktreeHold> {
    await mkdir(this.folder, { recursive: true });
    return this.locks.acquire(this.lockFile(worktree));
  }

  /** Whether this window holds the lock of `worktree`. */
  holds(worktree: string): boolean {
    return this.locks.holds(this.lockFile(worktree));
  }

  release(worktree: string): void {
    this.locks.release(this.lockFile(worktree));
  }

  dispose(): void {
    this.locks.dispose();
  }

  private lockFile(worktree: string): string {
    // The real path spelled once; two spellings the system takes for one path share a lock.
    const key = nameKey(path.resolve(worktree));
    return path.join(this.folder, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.lock`);
  }
}

/** "process 123 on host" — who holds a worktree, in the user's words. */
export function ownerText(owner: LockOwner | undefined): string {
  return owner ? `process ${owner.pid} on ${owner.host}` : 'another window';
}
