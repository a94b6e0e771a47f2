import { rm, stat } from 'node:fs/promises';
import type { Logger } from '../../../core/ports';
import type { BackgroundPacking } from './backgroundPacking';

/** Runs git in the shadow repository; resolves with its stdout. */
type Git = (args: readonly string[], input?: string) => Promise<string>;

/** An index.lock older than this was left by a git that died (a crash, a killed window). */
const STALE_LOCK_MS = 60_000;

/**
 * Keeps the newest checkpoints' refs and drops the rest (in the store's queue: quick), then starts a pack
 * beside the queue when one is due; the dropped checkpoints' objects are collected by a later pack, once
 * unreachable for two weeks (./backgroundPacking).
 */
export async function keepNewestCheckpoints(
  git: Git,
  packing: BackgroundPacking,
  options: { readonly refs: string; readonly keep: number; readonly gitDir: string; readonly logger: Logger },
): Promise<void> {
  try {
    const refs = (await git(['for-each-ref', '--sort=-committerdate', '--format=%(refname)', options.refs]))
      .split('\n')
      .filter((ref) => ref !== '');
    const old = refs.slice(options.keep);
    if (old.length > 0) {
      await git(['update-ref', '--stdin'], old.map((ref) => `delete ${ref}\n`).join(''));
      packing.refsDropped();
    }
  } catch (error) {
    options.logger.warn(`Checkpoint housekeeping in ${options.gitDir} failed: ${String(error)}`);
  }
  void packing.start();
}

/** Removes an index lock left by an interrupted checkpoint (one older than a minute). */
export async function removeStaleLock(lock: string, logger: Logger): Promise<void> {
  try {
    const info = await stat(lock);
    if (Date.now() - info.mtimeMs > STALE_LOCK_MS) {
      logger.warn(`Removing a stale ${lock} left by an interrupted checkpoint.`);
      await rm(lock, { force: true });
    }
  } catch {
    // no lock
  }
}
