import { copyFile, mkdir, readdir, rm, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { processRuns } from '../../../core/connection/processRuns';

/** Index files of the shadow repository, one per store object: `<pid>-<n>` in this folder of GIT_DIR. */
const INDEX_DIR = 'acp-index';
let opened = 0;

/**
 * Gives this store object its own index file for the shadow repository. Two windows (processes) on one
 * folder share the repository's objects and refs — git writes those safely across processes — but the
 * index is git's one mutable file guarded by `index.lock`: with a shared index, one window's checkpoint
 * fails on the other's lock, and removing a lock "left by a crash" would remove a live one. With one index
 * each, every lock is this object's own. The new index is seeded from the newest whole one left — a
 * closed window's too (it is only a cache of file stats: it spares hashing every file again, ~20 s at
 * 200,000 files) — and then the index files of processes that no longer run are removed.
 */
export async function ownIndex(gitDir: string): Promise<string> {
  const dir = path.join(gitDir, INDEX_DIR);
  await mkdir(dir, { recursive: true });
  const mine = path.join(dir, `${process.pid}-${++opened}`);
  let newest: { file: string; mtimeMs: number } | undefined;
  const left: string[] = [];
  for (const name of await readdir(dir)) {
    const file = path.join(dir, name);
    const owner = /^(\d+)-\d+(\.lock)?$/.exec(name);
    if (!owner || (Number(owner[1]) !== process.pid && !processRuns(Number(owner[1])))) {
      left.push(file);
    }
    if (owner && !owner[2]) {
      const info = await stat(file).catch(() => undefined);
      if (info?.isFile() && (!newest || info.mtimeMs > newest.mtimeMs)) {
        newest = { file, mtimeMs: info.mtimeMs };
      }
    }
  }
  const legacy = path.join(gitDir, 'index');
  const seed = newest?.file ?? legacy;
  // git replaces an index by renaming its lock over it, so the file copied is always a whole one (a lock
  // left by a crash is never one).
  await copyFile(seed, mine).catch(() => undefined);
  await Promise.all([...left, legacy].map((file) => rm(file, { force: true })));
  return mine;
}
