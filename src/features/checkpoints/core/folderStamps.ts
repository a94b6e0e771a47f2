import type { BigIntStats } from 'node:fs';
import { lstat, stat } from 'node:fs/promises';
import * as path from 'node:path';

/**
 * A folder's ctime changes whenever an entry is added, removed or renamed in it — and no process can set
 * a ctime back (`utimes` sets mtime and atime, and moves ctime to now). A stamp is trusted only when its
 * ctime was at least this long before we took it: a later change then gets a later ctime even on a file
 * system that keeps whole seconds (FAT: 2 s), and even from a coarse kernel clock a tick behind ours.
 */
const SETTLE_NS = 2_000_000_000n;
/** Stamps taken at once. */
const STAT_BATCH = 64;

/**
 * What the walk for rule files saw of the work tree: each folder it read (stat'ed before reading it) and
 * each `.gitignore` / `.gitattributes` in them. While every stamp is unchanged, no entry was added, removed
 * or renamed in those folders and no rule file was touched — so git's list of untracked and ignored files,
 * and the rule walk's answer, are what they were (a file modified in place is not seen here: git's own
 * stat of every indexed file finds those).
 */
export class FolderStamps {
  private readonly folders = new Map<string, string>();
  private readonly rules = new Map<string, string>();
  /** False when a stamp was taken too soon after its last change to be trusted. */
  private settled = true;

  constructor(
    private readonly root: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Stamps folder `dir` (`/`-separated, ending in `/`; `''` for the root). Call before reading it. */
  async addFolder(dir: string): Promise<void> {
    this.folders.set(dir, await this.take(dir, folderStamp));
  }

  /** Stamps the rule file `rel` (and, for a link, what it names). */
  async addRuleFile(rel: string): Promise<void> {
    this.rules.set(rel, await this.take(rel, ruleStamp));
  }

  /** Whether every stamp was settled when taken: only then can a later look trust them. */
  get trustworthy(): boolean {
    return this.settled;
  }

  /** Forgets the folders (and their rule files) `skip` says git does not enter (ignored folders). */
  prune(skip: (dir: string) => boolean): void {
    for (const dir of this.folders.keys()) {
      if (dir !== '' && underSkipped(dir, skip)) {
        this.folders.delete(dir);
      }
    }
    for (const rel of this.rules.keys()) {
      if (underSkipped(rel, skip)) {
        this.rules.delete(rel);
      }
    }
  }

  /** Whether every folder and rule file is as stamped (and the stamps were trustworthy). */
  async unchanged(): Promise<boolean> {
    if (!this.settled) {
      return false;
    }
    return (
      (await sameStamps(this.folders, (dir) => folderStamp(path.join(this.root, dir)))) &&
      (await sameStamps(this.rules, (rel) => ruleStamp(path.join(this.root, rel))))
    );
  }

  private async take(rel: string, stampOf: (absolute: string) => Promise<Stamp>): Promise<string> {
    const lookedAt = BigInt(Math.floor(this.now())) * 1_000_000n;
    const { key, ctimeNs } = await stampOf(path.join(this.root, rel));
    if (ctimeNs !== undefined && lookedAt - ctimeNs < SETTLE_NS) {
      this.settled = false;
    }
    return key;
  }
}

interface Stamp {
  readonly key: string;
  readonly ctimeNs?: bigint;
}

/** Every field a change of the folder's entries (or a mount over it) moves; `gone` when it is not there. */
async function folderStamp(absolute: string): Promise<Stamp> {
  try {
    const info = await lstat(absolute, { bigint: true });
    return { key: keyOf(info), ctimeNs: info.ctimeNs };
  } catch {
    return { key: 'gone' };
  }
}

/** A rule file's stamp; a link's includes what it names, which can change without the link changing. */
async function ruleStamp(absolute: string): Promise<Stamp> {
  let info: BigIntStats;
  try {
    info = await lstat(absolute, { bigint: true });
  } catch {
    return { key: 'gone' };
  }
  if (!info.isSymbolicLink()) {
    return { key: keyOf(info), ctimeNs: info.ctimeNs };
  }
  try {
    const target = await stat(absolute, { bigint: true });
    const ctimeNs = target.ctimeNs > info.ctimeNs ? target.ctimeNs : info.ctimeNs;
    return { key: `${keyOf(info)}->${keyOf(target)}`, ctimeNs };
  } catch {
    return { key: `${keyOf(info)}->dangling`, ctimeNs: info.ctimeNs };
  }
}

function keyOf(info: BigIntStats): string {
  return `${info.dev}:${info.ino}:${info.mode}:${info.nlink}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

async function sameStamps(
  stamped: ReadonlyMap<string, string>,
  stampOf: (rel: string) => Promise<Stamp>,
): Promise<boolean> {
  const entries = [...stamped];
  for (let start = 0; start < entries.length; start += STAT_BATCH) {
    const batch = entries.slice(start, start + STAT_BATCH);
    const now = await Promise.all(batch.map(([rel]) => stampOf(rel)));
    if (now.some((stamp, index) => stamp.key !== batch[index]![1])) {
      return false;
    }
  }
  return true;
}

/** Whether `rel` is inside (or is) a folder `skip` names, checked from the top down. */
function underSkipped(rel: string, skip: (dir: string) => boolean): boolean {
  for (let slash = rel.indexOf('/'); slash !== -1; slash = rel.indexOf('/', slash + 1)) {
    if (skip(rel.slice(0, slash + 1))) {
      return true;
    }
  }
  return false;
}
