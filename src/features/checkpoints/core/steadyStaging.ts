import { lstat } from 'node:fs/promises';
import * as path from 'node:path';
import { toLiteralPathspec } from './pathspecs';

/**
 * File times come from a coarse clock (a few ms on Linux, up to 2 s elsewhere): a write within the same
 * tick as our look leaves the time unchanged. A file last written this recently is not known to be
 * still until it is looked at again after this long.
 */
export const RACY_MS = 50;
/** Files stat'ed at once. */
const STAT_BATCH = 64;

/** Runs `git add`: `-A` of the pathspecs, or `--renormalize` (re-read even when the stat looks clean). */
export type Add = (pathspecs: readonly string[], renormalize: boolean) => Promise<void>;

export interface SteadyStagingInput {
  readonly folder: string;
  readonly add: Add;
  /** What to stage: the whole folder as pathspecs. */
  readonly pathspecs: readonly string[];
  /** The files git will read (listed as new or modified), `/`-separated. */
  readonly reading: readonly string[];
  /** Files an earlier snapshot was unsure of: read again whatever their stat says. */
  readonly unsureBefore: ReadonlySet<string>;
  /** Waits `ms` (a clock tick to pass); injectable for tests. */
  readonly wait?: (ms: number) => Promise<void>;
}

/**
 * Stages the folder and makes sure every file git read held still while it was read: each file's
 * lstat (size, times, inode) is taken before and after `git add`; a file that moved — or was written
 * too recently for its time to tell — is staged once more after its clock tick has passed. Files still
 * moving then are returned: the checkpoint is unsure of them (their stored bytes may be torn or empty).
 */
export async function stageSteadily(input: SteadyStagingInput): Promise<Set<string>> {
  const wait = input.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const again = [...input.unsureBefore];
  const watched = [...new Set([...input.reading, ...again])];
  const moved = await watch(input.folder, watched, async () => {
    if (input.pathspecs.length > 0) {
      await input.add(input.pathspecs, false);
    }
    if (again.length > 0) {
      await input.add(again.map(toLiteralPathspec), true);
    }
  });
  if (moved.length === 0) {
    return new Set();
  }
  await wait(RACY_MS);
  const literal = moved.map(toLiteralPathspec);
  const stillMoving = await watch(input.folder, moved, async () => {
    await input.add(literal, false); // created or deleted meanwhile
    await input.add(literal, true); // read again even where git's stat cache calls it clean
  });
  return new Set(stillMoving);
}

/** The files of `rels` that did not hold still while `work` ran. */
async function watch(folder: string, rels: readonly string[], work: () => Promise<void>): Promise<string[]> {
  const startedAt = Date.now();
  const before = await stamps(folder, rels);
  await work();
  const after = await stamps(folder, rels);
  return rels.filter((rel, index) => {
    const then = before[index];
    const now = after[index];
    if (then?.key !== now?.key) {
      return true;
    }
    // Unchanged, but written within a clock tick of our first look: a later write may not show.
    return now !== undefined && Math.abs(startedAt - now.mtimeMs) < RACY_MS;
  });
}

interface Stamp {
  readonly key: string;
  readonly mtimeMs: number;
}

async function stamps(folder: string, rels: readonly string[]): Promise<(Stamp | undefined)[]> {
  const result: (Stamp | undefined)[] = [];
  for (let start = 0; start < rels.length; start += STAT_BATCH) {
    result.push(
      ...(await Promise.all(
        rels.slice(start, start + STAT_BATCH).map((rel) => stamp(path.join(folder, rel))),
      )),
    );
  }
  return result;
}

async function stamp(file: string): Promise<Stamp | undefined> {
  try {
    const info = await lstat(file, { bigint: true });
    return {
      key: `${info.size}:${info.mtimeNs}:${info.ctimeNs}:${info.ino}:${info.mode}`,
      mtimeMs: Number(info.mtimeMs),
    };
  } catch {
    return undefined; // gone: staged as deleted
  }
}
