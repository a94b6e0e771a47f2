import { readdir } from 'node:fs/promises';
import * as path from 'node:path';
import type { Disposable } from '../../../core/util/disposable';
import type { Logger } from '../../../core/ports';
import type { GitRunOptions } from './gitRunner';

/** Runs git in the shadow repository (see gitRunner's `runGit`). */
type RunGit = (args: readonly string[], options: GitRunOptions) => Promise<unknown>;

/** git's own `gc.auto` default: that many loose objects make a repository due for packing. */
export const GC_AUTO_LOOSE_OBJECTS = 6700;
/** What `git gc --prune` keeps of the unreachable objects: those younger than this (git's default). */
const PRUNE_EXPIRY = '2.weeks.ago';
/** A pack of a 200,000-file folder took 3 minutes on a loaded machine; a hung one is stopped after this. */
const PACKING_TIMEOUT_MS = 30 * 60_000;

export interface BackgroundPackingOptions {
  readonly gitDir: string;
  readonly logger: Logger;
  /** `gc.auto` for this repository (tests give a small one). */
  readonly packLooseObjects?: number;
}

/**
 * Packs the shadow repository's objects with `git gc --auto` beside the store's queue, not in it, so a
 * checkpoint, Undo or Restore never waits for a pack (73 s after the first checkpoint of a 200,000-file
 * folder). At the lowest priority with one thread, stopped on dispose or after half an hour; a failure
 * is only logged (the loose objects stay and are packed next time).
 *
 * Safe beside checkpoints, this window's and another's on the same folder:
 * - Packing alone (`--no-prune`) deletes nothing: every object, reachable or not, ends in the new pack or
 *   the cruft pack (`gc.cruftPacks`), and an object written meanwhile stays loose until the next pack.
 * - Collecting unreachable objects (`--prune`, only once this store has dropped old checkpoints' refs)
 *   deletes only those unreachable for two weeks: what a checkpoint writes meanwhile is new, and git
 *   freshens an old object it writes again. (git's documented race remains: an object unreachable for
 *   two weeks, written again at the moment the collection decides on it.)
 * - Two windows: git's own `gc.pid` lock; `gc --auto` leaves when another gc holds it.
 */
export class BackgroundPacking implements Disposable {
  private readonly stopped = new AbortController();
  private running: Promise<void> | undefined;
  /** Refs were dropped since the last collection: unreachable objects may be waiting. */
  private collect = false;

  constructor(
    private readonly runGit: RunGit,
    private readonly options: BackgroundPackingOptions,
  ) {}

  /** Says the newest checkpoints' refs were pruned: the next pack also collects what became unreachable. */
  refsDropped(): void {
    this.collect = true;
  }

  /**
   * Starts a pack when git would (`gc --auto`) and none is running. `whenDue` first looks whether enough
   * loose objects wait, as git does (one of its 256 object folders), so most checkpoints start no process.
   */
  start(whenDue = false): Promise<void> {
    if (this.running !== undefined || this.stopped.signal.aborted) {
      return Promise.resolve();
    }
    // Set at once, so `idle()` waits for the look at the loose objects too.
    const running = this.packWhenDue(whenDue).finally(() => {
      if (this.running === running) {
        this.running = undefined;
      }
    });
    this.running = running;
    return running;
  }

  /** Resolves when no pack is running (tests, the bench). */
  async idle(): Promise<void> {
    while (this.running !== undefined) {
      await this.running;
    }
  }

  /** Stops a running pack (git removes its lock and temporary pack) and starts no other. */
  dispose(): void {
    this.stopped.abort();
  }

  private async packWhenDue(whenDue: boolean): Promise<void> {
    const due = await this.due();
    if ((whenDue && !due) || this.stopped.signal.aborted) {
      return;
    }
    // Collecting waits for a pack git will run (enough loose objects): a gc --auto with nothing to do
    // would otherwise use up the request.
    const collect = this.collect && due;
    if (collect) {
      this.collect = false;
    }
    await this.pack(collect);
  }

  private async pack(collect: boolean): Promise<void> {
    try {
      await this.runGit(
        [
          '-c',
          `gc.auto=${this.limit}`,
          '-c',
          'gc.cruftPacks=true',
          '-c',
          'pack.threads=1',
          'gc',
          '--auto',
          '--quiet',
          collect ? `--prune=${PRUNE_EXPIRY}` : '--no-prune',
        ],
        { background: true, signal: this.stopped.signal, timeoutMs: PACKING_TIMEOUT_MS },
      );
    } catch (error) {
      if (collect) {
        this.collect = true; // not collected: next time
      }
      if (!this.stopped.signal.aborted) {
        this.options.logger.warn(
          `Packing the checkpoints in ${this.options.gitDir} failed: ${String(error)}`,
        );
      }
    }
  }

  private get limit(): number {
    return this.options.packLooseObjects ?? GC_AUTO_LOOSE_OBJECTS;
  }

  /** git's own estimate: the loose objects in `objects/17`, against a 256th of `gc.auto`. */
  private async due(): Promise<boolean> {
    try {
      const names = await readdir(path.join(this.options.gitDir, 'objects', '17'));
      const loose = names.filter((name) => /^[0-9a-f]{38}(?:[0-9a-f]{24})?$/.test(name)).length;
      return loose > Math.ceil(this.limit / 256);
    } catch {
      return false; // no such folder: no loose object there
    }
  }
}
