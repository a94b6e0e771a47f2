import { lstat, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A marker the limited store rewrites to see the file-system clock move (in its own storage folder). */
const CLOCK_MARKER = 'clock';
/** Looks at most this many times (the kernel's tick is 1–10 ms; a clock stuck longer is not waited for). */
const CLOCK_LOOKS = 100;

/**
 * When `file` last changed (its ctime, in ms; a link's target's too: either moving is a change). For a file
 * that is not there, when the nearest folder above it that is — up to `root` — last had an entry added,
 * removed or renamed: the file cannot have been there since. No process can set a ctime back (`utimes`
 * moves it to now). `undefined` when nothing can be stat'ed.
 */
export async function lastChange(file: string, root: string): Promise<number | undefined> {
  try {
    const own = await lstat(file);
    const target = own.isSymbolicLink() ? await stat(file).catch(() => undefined) : undefined;
    return Math.max(own.ctimeMs, target?.ctimeMs ?? 0);
  } catch {
    // gone: its folder tells since when
  }
  for (let folder = path.dirname(file); ; folder = path.dirname(folder)) {
    try {
      return (await lstat(folder)).ctimeMs;
    } catch {
      if (folder === root || path.dirname(folder) === folder) {
        return undefined;
      }
    }
  }
}

/**
 * Whether a file whose last change is `changedAt` (a ctime, ms with a fraction) is unchanged since the
 * checkpoint of `at` (whole ms, `Date.now()`): changed in its millisecond or earlier. A write in the same
 * millisecond just before the checkpoint has a ctime past `at` by a fraction; `passFileClock` puts every
 * later change in a later millisecond.
 */
export function unchangedSince(changedAt: number | undefined, at: number): boolean {
  return changedAt !== undefined && Math.floor(changedAt) <= at;
}

/**
 * Resolves once a change made now gets a ctime in a millisecond after `at` (whole ms). File times come from
 * a coarse clock (a tick of 1–10 ms behind the wall clock): until it passes `at`'s millisecond, a write after
 * a checkpoint could look as old as it. Waiting here, before the prompt goes out, makes every change the
 * turn makes later than its checkpoint (`unchangedSince`). Measured on a marker in `folder` (the store's own
 * folder).
 */
export async function passFileClock(folder: string, at: number): Promise<void> {
  const marker = path.join(folder, CLOCK_MARKER);
  for (let look = 0; look < CLOCK_LOOKS; look++) {
    await writeFile(marker, String(look));
    if (Math.floor((await stat(marker)).ctimeMs) > at) {
      return;
    }
    await sleep(1);
  }
}
