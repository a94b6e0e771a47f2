import { hostname } from 'node:os';
import { open, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import * as z from 'zod/mini';
import type { Disposable } from '../util/disposable';
import { processRuns } from '../connection/processRuns';

/** Who holds a chat's journal for writing. */
export interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly since: number;
}

const OwnerSchema = z.object({ pid: z.number().check(z.int()), host: z.string(), since: z.number() });

export type LockResult = { readonly held: true } | { readonly held: false; readonly owner?: LockOwner };

export interface WriterLockOptions {
  /** A lock of another host not refreshed for this long is stale (its window is gone). */
  readonly staleAfterMs?: number;
}

/**
 * One writer per chat across processes (two windows on one workspace share the journal folder):
 * a lock file created exclusively, naming its owner's pid and host. A lock whose owner is gone —
 * its pid no longer runs on this host, or another host stopped refreshing it — is stale and taken
 * over. Locks are held until released or disposed (the window closes); a crashed window's lock is
 * found stale by its pid.
 */
export class WriterLocks implements Disposable {
  private readonly held = new Set<string>();
  private refresh: ReturnType<typeof setInterval> | undefined;
  private readonly staleAfterMs: number;
  private readonly host = hostname();

  constructor(options: WriterLockOptions = {}) {
    this.staleAfterMs = options.staleAfterMs ?? 60_000;
  }

  async acquire(lockPath: string): Promise<LockResult> {
    if (this.held.has(lockPath)) {
      return { held: true };
    }
    if (await this.create(lockPath)) {
      return { held: true };
    }
    const found = await this.readOwner(lockPath);
    if (!found || !(await this.isStale(lockPath, found.owner, found.text))) {
      return { held: false, ...(found?.owner ? { owner: found.owner } : {}) };
    }
    // Move the stale lock aside (atomic), then create ours; exclusive creation decides a tie.
    const aside = `${lockPath}.stale-${process.pid}-${Date.now()}`;
    try {
      await rename(lockPath, aside);
      const moved = await readFile(aside, 'utf8').catch(() => '');
      if (moved !== found.text) {
        // Another window took the stale lock over between our read and the move: give it back.
        await rename(aside, lockPath).catch(() => {});
        return this.acquire(lockPath);
      }
      await rm(aside, { force: true });
    } catch {
      // Gone already: someone else cleared it.
    }
    if (await this.create(lockPath)) {
      return { held: true };
    }
    const owner = (await this.readOwner(lockPath))?.owner;
    return { held: false, ...(owner ? { owner } : {}) };
  }

  release(lockPath: string): void {
    if (this.held.delete(lockPath)) {
      rmSync(lockPath, { force: true });
    }
    this.schedule();
  }

  holds(lockPath: string): boolean {
    return this.held.has(lockPath);
  }

  dispose(): void {
    for (const lockPath of [...this.held]) {
      this.release(lockPath);
    }
  }

  private async create(lockPath: string): Promise<boolean> {
    const owner: LockOwner = { pid: process.pid, host: this.host, since: Date.now() };
    let handle;
    try {
      handle = await open(lockPath, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        return false;
      }
      throw error;
    }
    try {
      await handle.writeFile(JSON.stringify(owner), 'utf8');
    } finally {
      await handle.close();
    }
    this.held.add(lockPath);
    this.schedule();
    return true;
  }

  private async readOwner(lockPath: string): Promise<{ owner?: LockOwner; text: string } | undefined> {
    const text = await readFile(lockPath, 'utf8').catch(() => undefined);
    if (text === undefined) {
      return undefined;
    }
    try {
      const parsed = OwnerSchema.safeParse(JSON.parse(text));
      return parsed.success ? { owner: parsed.data, text } : { text };
    } catch {
      return { text };
    }
  }

  private async isStale(lockPath: string, owner: LockOwner | undefined, _text: string): Promise<boolean> {
    if (owner && owner.host === this.host) {
      // Our own pid without holding it: another journal in this process (never stale).
      return owner.pid !== process.pid && !processRuns(owner.pid);
    }
    // Another host (or a lock cut off while written): stale once nobody refreshes it.
    const modified = await stat(lockPath).then(
      (s) => s.mtimeMs,
      () => 0,
    );
    return Date.now() - modified > this.staleAfterMs;
  }

  /** Refreshes held locks' times so another host can tell a live owner from a gone one. */
  private schedule(): void {
    if (this.held.size === 0) {
      if (this.refresh) {
        clearInterval(this.refresh);
        this.refresh = undefined;
      }
      return;
    }
    this.refresh ??= setInterval(() => {
      const now = new Date();
      for (const lockPath of this.held) {
        void utimes(lockPath, now, now).catch(() => {});
      }
    }, this.staleAfterMs / 3);
    this.refresh.unref?.();
  }
}
