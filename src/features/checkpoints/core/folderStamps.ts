import * as path from 'node:path';
import { CTIME_AT, MODE_AT, STAMP_NUMBERS, TARGET_CTIME_AT, type StampTaker } from './stampTaker';

/**
 * A folder's ctime changes whenever an entry is added, removed or renamed in it — and no process can set
 * a ctime back (`utimes` sets mtime and atime, and moves ctime to now). A stamp is trusted only when its
 * ctime was at least this long before we took it: a later change then gets a later ctime even on a file
 * system that keeps whole seconds (FAT: 2 s), and even from a coarse kernel clock a tick behind ours.
 */
const SETTLE_NS = 2_000_000_000n;

/**
 * What the walk for rule files saw of the work tree: each folder it read (stat'ed before reading it) and
 * each `.gitignore` / `.gitattributes` in them (a link's target too). While every stamp is unchanged, no
 * entry was added, removed or renamed in those folders and no rule file was touched — so git's list of
 * untracked and ignored files, and the rule walk's answer, are what they were (a file modified in place
 * is not seen here: git's own stat of every indexed file finds those). Stamps are numbers (see
 * ./stampTaker), compared as numbers: no string per stamp.
 */
export class FolderStamps {
  /** Folder (`/`-separated, ending in `/`; `''` for the root) or rule file → its stamp. */
  private readonly stamps = new Map<string, BigInt64Array>();
  /** False when a stamp was taken too soon after its last change to be trusted, or could not be taken. */
  private settled = true;
  /** A batch of stamps could not be taken: nothing is known of those entries. */
  private missing = false;
  /** The absolute paths of `stamps`' keys, in order, while none was added or pruned. */
  private absolutePaths: string[] | undefined;

  constructor(
    private readonly root: string,
    private readonly taker: StampTaker,
    private readonly now: () => number = Date.now,
  ) {}

  /** Stamps the folders `dirs` (`/`-separated, ending in `/`; `''` for the root). Call before reading them. */
  addFolders(dirs: readonly string[]): Promise<void> {
    return this.add(dirs);
  }

  /** Stamps the rule file `rel` (and, for a link, what it names). */
  addRuleFile(rel: string): Promise<void> {
    return this.add([rel]);
  }

  /** Whether every stamp was settled when taken: only then can a later look trust them. */
  get trustworthy(): boolean {
    return this.settled;
  }

  /** Forgets the folders (and their rule files) `skip` says git does not enter (ignored folders). */
  prune(skip: (dir: string) => boolean): void {
    for (const rel of this.stamps.keys()) {
      if (underSkipped(rel, skip)) {
        this.stamps.delete(rel);
        this.absolutePaths = undefined;
      }
    }
  }

  /**
   * The folders (`/`-separated, ending in `/`; `''` for the root) whose entries changed since they were
   * stamped; `all` when the stamps cannot say. (A change within the clock tick of the stamp does not show:
   * a few ms on the usual file systems.)
   */
  async changedFolders(): Promise<string[] | 'all'> {
    if (this.missing) {
      return 'all';
    }
    const folders = [...this.stamps.keys()].filter((rel) => rel === '' || rel.endsWith('/'));
    let now: BigInt64Array;
    try {
      now = await this.taker.take(folders.map((rel) => path.join(this.root, rel)));
    } catch {
      return 'all';
    }
    return folders.filter((rel, index) =>
      this.stamps.get(rel)!.some((value, field) => now[index * STAMP_NUMBERS + field] !== value),
    );
  }

  /** Whether every folder and rule file is as stamped (and the stamps were trustworthy). */
  async unchanged(): Promise<boolean> {
    if (!this.settled) {
      return false;
    }
    this.absolutePaths ??= [...this.stamps.keys()].map((rel) => path.join(this.root, rel));
    let now: BigInt64Array;
    try {
      now = await this.taker.take(this.absolutePaths);
    } catch {
      return false; // not known: a full look
    }
    let at = 0;
    for (const stamp of this.stamps.values()) {
      for (let field = 0; field < STAMP_NUMBERS; field++) {
        if (now[at + field] !== stamp[field]) {
          return false;
        }
      }
      at += STAMP_NUMBERS;
    }
    return true;
  }

  private async add(rels: readonly string[]): Promise<void> {
    const lookedAt = BigInt(Math.floor(this.now())) * 1_000_000n;
    let taken: BigInt64Array;
    try {
      taken = await this.taker.take(rels.map((rel) => path.join(this.root, rel)));
    } catch {
      this.settled = false; // never trusted: the next look is a full one
      this.missing = true;
      return;
    }
    this.absolutePaths = undefined;
    rels.forEach((rel, index) => {
      const stamp = taken.subarray(index * STAMP_NUMBERS, (index + 1) * STAMP_NUMBERS);
      const ctimeNs = stamp[TARGET_CTIME_AT]! > stamp[CTIME_AT]! ? stamp[TARGET_CTIME_AT]! : stamp[CTIME_AT]!;
      // A gone entry (all 0) has no ctime to settle: its stamp changes when one appears.
      if (stamp[MODE_AT] !== 0n && lookedAt - ctimeNs < SETTLE_NS) {
        this.settled = false;
      }
      this.stamps.set(rel, stamp);
    });
  }
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
