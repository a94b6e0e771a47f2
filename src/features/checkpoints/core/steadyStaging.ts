import { lstat } from 'node:fs/promises';
import * as path from 'node:path';
import { killedBySignal } from './gitRunner';
import { HELD_SAVE_MS } from './heldSave';
import { excludePathspec, toLiteralPathspec } from './pathspecs';

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
  /** The wall clock, in ms (default `Date.now`); tests run it ahead. */
  readonly now?: () => number;
}

export interface SteadyStagingResult {
  /** Files still moving after the second staging: their stored bytes may be torn or empty. */
  readonly unsure: Set<string>;
  /**
   * Files whose ctime was, when staged, in the second git read them (or later). git keeps whole seconds
   * of ctime (no `USE_NSEC` in common builds), and mtime can be set back by anyone: a rewrite of the same
   * size later in that second, its mtime set back, would look unchanged to git's stat check.
   */
  readonly recent: Set<string>;
}

/**
 * Stages the folder and makes sure every file git read held still while it was read: each file's
 * lstat (size, times, inode) is taken before and after `git add`; a file that moved — or was written
 * too recently for its time to tell — is staged once more after its clock tick has passed. One empty,
 * or gone, within a held save's gap (./heldSave) of its last write — or of its folder's last change of
 * entries — is staged once more after that gap: a save held between deleting a file and writing it anew
 * hides it from every look at its name. Files still moving then are the unsure ones.
 */
export async function stageSteadily(input: SteadyStagingInput): Promise<SteadyStagingResult> {
  const wait = input.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const wallClock = input.now ?? Date.now;
  const again = [...input.unsureBefore];
  const watched = [...new Set([...input.reading, ...again])];
  const stage = (pathspecs: readonly string[], rereads: readonly string[]) => async () => {
    if (pathspecs.length > 0) {
      await input.add(pathspecs, false);
    }
    if (rereads.length > 0) {
      await input.add(rereads.map(toLiteralPathspec), true);
    }
  };
  const first = await watch(input.folder, watched, stage(input.pathspecs, again), wallClock);
  if (first.failure !== undefined) {
    // Git was killed (after its one retry) while files moved under it — a file it mapped was truncated:
    // the others are staged without those, which keep their last staged bytes and are marked unsure.
    const moving = new Set(first.moved);
    const rest = watched.filter((rel) => !moving.has(rel));
    const second = await watch(
      input.folder,
      rest,
      stage(
        withoutFiles(input.pathspecs, first.moved),
        again.filter((rel) => !moving.has(rel)),
      ),
      wallClock,
    );
    if (second.failure !== undefined) {
      throw second.failure;
    }
    return { unsure: new Set([...first.moved, ...second.moved]), recent: new Set(second.recent) };
  }
  if (first.moved.length === 0) {
    return { unsure: new Set(), recent: new Set(first.recent) };
  }
  const moved = first.moved;
  await wait(first.heldMoved ? HELD_SAVE_MS : RACY_MS);
  const literal = moved.map(toLiteralPathspec);
  const settled = await watch(
    input.folder,
    moved,
    async () => {
      await input.add(literal, false); // created or deleted meanwhile
      await input.add(literal, true); // read again even where git's stat cache calls it clean
    },
    wallClock,
  );
  // Killed again while re-reading them: they keep what was staged, and the checkpoint is unsure of them.
  const movedSet = new Set(moved);
  return {
    unsure: new Set(settled.failure !== undefined ? moved : settled.moved),
    recent: new Set([...first.recent.filter((rel) => !movedSet.has(rel)), ...settled.recent]),
  };
}

/** `pathspecs` less the files `rels` (named files are dropped; a whole-folder spec gets exclusions). */
function withoutFiles(pathspecs: readonly string[], rels: readonly string[]): string[] {
  if (pathspecs[0] === '.') {
    return [...pathspecs, ...rels.map(excludePathspec)];
  }
  const left = new Set(rels.map(toLiteralPathspec));
  return pathspecs.filter((spec) => !left.has(spec));
}

/**
 * The files of `rels` that did not hold still while `work` ran. A git killed by a signal while some of
 * them moved is returned as `failure` (what moved says why); any other failure is thrown.
 */
async function watch(
  folder: string,
  rels: readonly string[],
  work: () => Promise<void>,
  wallClock: () => number,
): Promise<{
  readonly moved: string[];
  /** Some file that moved is empty or gone: perhaps a save held half way. */
  readonly heldMoved?: boolean;
  readonly recent: string[];
  readonly failure?: unknown;
}> {
  const startedAt = wallClock();
  const before = await stamps(folder, rels);
  let failure: unknown;
  try {
    await work();
  } catch (error) {
    if (!killedBySignal(error)) {
      throw error;
    }
    failure = error;
  }
  const after = await stamps(folder, rels);
  if (failure !== undefined) {
    // Only files that really changed are blamed for the kill (not those merely written recently).
    const changed = rels.filter((_rel, index) => before[index]?.key !== after[index]?.key);
    if (changed.length === 0) {
      throw failure;
    }
    return { moved: changed, recent: [], failure };
  }
  const gone = rels.filter((_rel, index) => after[index] === undefined);
  const goneAt = await entriesChangedAt(folder, gone, wallClock);
  let heldMoved = false;
  const moved = rels.filter((rel, index) => {
    const then = before[index];
    const now = after[index];
    // Gone, the time its folder's entries last changed: a save that deleted it may be held before writing.
    const changedAt = now === undefined ? goneAt.get(rel)! : now.mtimeMs;
    const held = now === undefined || now.empty;
    const moving =
      then?.key !== now?.key ||
      // Unchanged, but written within a clock tick of our first look (or, empty or gone, within a held
      // save's gap): a later write may not show.
      Math.abs(startedAt - changedAt) < (held ? HELD_SAVE_MS : RACY_MS);
    heldMoved ||= moving && held;
    return moving;
  });
  // ctime: moved by every write, set back by nobody. A kernel clock a tick behind ours is allowed for.
  const firstSecond = Math.floor((startedAt - RACY_MS) / 1000);
  const recent = rels.filter((_rel, index) => {
    const now = after[index];
    return now !== undefined && Math.floor(now.ctimeMs / 1000) >= firstSecond;
  });
  return { moved, heldMoved, recent };
}

/**
 * For each of `rels` (gone), when the entries of the nearest folder above it that is still there last
 * changed (its ctime, ms): deleting the file, or a folder above it, moved that, and no process can set a
 * ctime back. Each folder is looked at once.
 */
async function entriesChangedAt(
  folder: string,
  rels: readonly string[],
  wallClock: () => number,
): Promise<Map<string, number>> {
  const folders = new Map<string, number | undefined>();
  const changedAt = async (dir: string): Promise<number> => {
    if (!folders.has(dir)) {
      const info = await lstat(path.join(folder, dir)).catch(() => undefined);
      folders.set(dir, info?.isDirectory() === true ? info.ctimeMs : undefined);
    }
    const at = folders.get(dir);
    if (at !== undefined) {
      return at;
    }
    // Not even the folder itself is there: it changed just now, as far as anyone can tell.
    return dir === '.' ? wallClock() : changedAt(path.posix.dirname(dir));
  };
  const times = new Map<string, number>();
  for (const rel of rels) {
    times.set(rel, await changedAt(path.posix.dirname(rel)));
  }
  return times;
}

interface Stamp {
  readonly key: string;
  readonly mtimeMs: number;
  readonly empty: boolean;
  readonly ctimeMs: number;
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
      empty: info.size === 0n,
      ctimeMs: Number(info.ctimeMs),
    };
  } catch {
    return undefined; // gone: staged as deleted
  }
}
