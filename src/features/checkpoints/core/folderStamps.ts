import * as path from 'node:path';
import { systemClock, type Clock } from '../../../core/util/clock';
import { HELD_SAVE_MS } from './heldSave';
import { CTIME_AT, MODE_AT, STAMP_NUMBERS, TARGET_CTIME_AT, type StampTaker } from './stampTaker';

/**
 * A folder's ctime changes whenever an entry is added, removed or renamed in it — and no process can set
 * a ctime back (`utimes` sets mtime and atime, and moves ctime to now). A stamp is trusted only when its
 * ctime was at least this long before we took it: a later change then gets a later ctime even on a file
 * system that keeps whole seconds (FAT: 2 s), and even from a coarse kernel clock a tick behind ours.
 */
const SETTLE_NS = 2_000_000_000n;
const HELD_SAVE_NS = BigInt(HELD_SAVE_MS) * 1_000_000n;

/** What `FolderStamps.changedFolders` found (`/`-separated folders, ending in `/`; `''` for the root). */
export interface FolderChanges {
  /** Their entries changed since stamped: a file there now may not have been listed. */
  readonly changed: readonly string[];
  /** Of those, the ones that went on changing: a file absent there now is not known to have been absent. */
  readonly restless: readonly string[];
}

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
  /**
   * Folders whose entries changed less than `HELD_SAVE_MS` before they were stamped (a save may have been
   * held between deleting a file and writing it anew), with when that time is up (wall clock, ns).
   */
  private readonly quietAt = new Map<string, bigint>();

  constructor(
    private readonly root: string,
    private readonly taker: StampTaker,
    private readonly now: () => number = Date.now,
    /** Times the wait for a held save (see `changedFolders`). */
    private readonly clock: Clock = systemClock,
  ) {}

  /** Stamps the folders `dirs` (`/`-separated, ending in `/`; `''` for the root). Call before reading them. */
  addFolders(dirs: readonly string[]): Promise<void> {
    return this.add(dirs);
  }

  /** Stamps the files `rels` (and, for a link, what it names). Call before reading them. */
  addFiles(rels: readonly string[]): Promise<void> {
    return this.add(rels);
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
        this.quietAt.delete(rel);
        this.absolutePaths = undefined;
      }
    }
  }

  /**
   * The folders whose entries changed since they were stamped (`changed`: a file not there when they were
   * listed may be there now), and those still changing (`restless`: a file absent there now is not known
   * to have been absent); `all` when the stamps cannot say. A folder that changed, or had just changed
   * when stamped, is looked at again once `HELD_SAVE_MS` has passed since its change — a save held between
   * deleting a file and writing it anew makes the file look absent, and shows only when it goes on. One
   * wait for all of them (at most `HELD_SAVE_MS`); one that stayed as it was meanwhile has settled.
   */
  async changedFolders(): Promise<FolderChanges | 'all'> {
    if (this.missing) {
      return 'all';
    }
    const folders = [...this.stamps.keys()].filter(isFolder);
    const now = await this.current(folders);
    if (now === 'all') {
      return 'all';
    }
    const changed = new Set(folders.filter((rel) => !sameStamp(now.get(rel)!, this.stamps.get(rel)!)));
    // Each folder to look at again, with when a save held at its last change would have gone on. One gone
    // now is not known to stay gone (a folder replaced by one written aside): it counts as still changing.
    const gone = new Set([...changed].filter((rel) => now.get(rel)![MODE_AT] === 0n));
    const watched = new Map<string, bigint>();
    for (const rel of folders) {
      if (changed.has(rel) && !gone.has(rel)) {
        watched.set(rel, now.get(rel)![CTIME_AT]! + HELD_SAVE_NS);
      } else if (!changed.has(rel) && this.quietAt.has(rel)) {
        watched.set(rel, this.quietAt.get(rel)!);
      }
    }
    const later = await this.stillChanging(watched, now);
    if (later === 'all') {
      return 'all';
    }
    const restless = new Set([...gone, ...later]);
    later.forEach((rel) => changed.add(rel));
    return {
      changed: folders.filter((rel) => changed.has(rel)),
      restless: folders.filter((rel) => restless.has(rel)),
    };
  }

  /**
   * Waits until a save held at each watched folder's last change would have gone on (the latest of
   * `watched`), then says which changed again since their stamp `now`.
   */
  private async stillChanging(
    watched: ReadonlyMap<string, bigint>,
    now: ReadonlyMap<string, BigInt64Array>,
  ): Promise<string[] | 'all'> {
    if (watched.size === 0) {
      return [];
    }
    const quietAt = [...watched.values()].reduce((latest, at) => (at > latest ? at : latest), 0n);
    // Never longer than a held save lasts: a change time ahead of our clock (one set back since) is no reason to.
    const waitMs = Math.min(Math.ceil(Number(quietAt / 1_000_000n) - this.now()), HELD_SAVE_MS);
    if (waitMs > 0) {
      await new Promise<void>((resolve) => this.clock.after(waitMs, resolve));
    }
    const rels = [...watched.keys()];
    const later = await this.current(rels);
    return later === 'all' ? 'all' : rels.filter((rel) => !sameStamp(later.get(rel)!, now.get(rel)!));
  }

  /** The stamps of `rels` now; `all` when they cannot be taken. */
  private async current(rels: readonly string[]): Promise<Map<string, BigInt64Array> | 'all'> {
    let taken: BigInt64Array;
    try {
      taken = await this.taker.take(rels.map((rel) => path.join(this.root, rel)));
    } catch {
      return 'all';
    }
    return new Map(
      rels.map((rel, index) => [rel, taken.subarray(index * STAMP_NUMBERS, (index + 1) * STAMP_NUMBERS)]),
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
      if (isFolder(rel) && stamp[MODE_AT] !== 0n && lookedAt - stamp[CTIME_AT]! < HELD_SAVE_NS) {
        this.quietAt.set(rel, stamp[CTIME_AT]! + HELD_SAVE_NS);
      } else {
        this.quietAt.delete(rel);
      }
      this.stamps.set(rel, stamp);
    });
  }
}

/** Whether two stamps are the same in every number. */
function sameStamp(a: BigInt64Array, b: BigInt64Array): boolean {
  return a.every((value, field) => value === b[field]);
}

/** Whether a stamp's key names a folder (`/`-ended; `''` the root) rather than a rule file. */
function isFolder(rel: string): boolean {
  return rel === '' || rel.endsWith('/');
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
