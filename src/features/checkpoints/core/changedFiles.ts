import type { Logger } from '../../../core/ports';
import type { Clock } from '../../../core/util/clock';
import { FolderStamps, type FolderChanges } from './folderStamps';
import { killedBySignal, splitNul } from './gitRunner';
import type { IgnoredFiles } from './ignoredFiles';
import { leaveOutUnreadableRules } from './ruleFiles';
import type { SkipList, SkippedFile } from './skipList';
import { toExcludePattern } from './excludeFile';
import { toLiteralPathspec } from './pathspecs';
import { StampTaker, type AnswerTimer } from './stampTaker';

/** Up to this many changed folders are looked at by name for unrecorded files; more, the whole folder. */
const UNRECORDED_LOOK_LIMIT = 1000;

/** Runs git in the shadow repository; resolves with its stdout. `stop` ends it (it then rejects). */
type Git = (args: readonly string[], stop?: AbortSignal) => Promise<string>;

export interface ChangeListingInput {
  readonly folder: string;
  readonly skipList: SkipList;
  readonly ignored: IgnoredFiles;
  readonly logger: Logger;
  readonly git: Git;
  /** Takes the files of these folders (no trailing `/`) out of the shadow index. */
  readonly forgetFolders: (dirs: readonly string[]) => Promise<void>;
  /** The wall clock, in ms (see ./folderStamps). */
  readonly now?: () => number;
  /** Times the wait for a held save (see ./folderStamps). */
  readonly clock?: Clock;
  /** Starts the wait for the stamps' answer (see ./stampTaker). */
  readonly answerTimer?: AnswerTimer;
}

/** A full look's stamps of the folders and rule files, with the exclude file then. */
export interface TrustedLook {
  readonly stamps: FolderStamps;
  readonly exclude: string;
}

/**
 * Lists what a snapshot must look at. A full look walks the folder three times (the rule-file walk, git's
 * untracked files, then git's ignored ones: ~1.4 s at 200,000 files); while no folder's entries and no rule
 * file changed since a full look whose snapshot took everything it listed (see ./folderStamps), the files
 * git has not indexed are the same ones as then (none: all were staged or are left out), so only the
 * indexed files are stat'ed by git, and the rule walk and the ignored list are not redone.
 */
export class ChangeListing {
  /** The stamps of the last full look, once its snapshot took everything; with the exclude file then. */
  private trusted: TrustedLook | undefined;
  /** The stamps of the full look whose snapshot is being taken. */
  private candidate: TrustedLook | undefined;
  /** Takes the stamps on a thread of its own (see ./stampTaker), for as long as the store is open. */
  private readonly taker: StampTaker;

  constructor(private readonly input: ChangeListingInput) {
    this.taker = new StampTaker(input.logger, input.answerTimer);
  }

  /** `ls-files -t` entries (`<tag> <path>`; `?` for untracked) of the files to look at. */
  async list(): Promise<string[]> {
    const { folder, skipList, ignored, logger, git } = this.input;
    const trusted = this.trusted;
    this.candidate = undefined;
    if (trusted === undefined) {
      await skipList.refresh();
    } else {
      const quick = await this.quickLook(trusted);
      if (quick !== undefined) {
        return quick;
      }
    }
    this.trusted = undefined;
    ignored.markStale();
    const stamps = new FolderStamps(folder, this.taker, this.input.now, this.input.clock);
    const ruleFolders = await leaveOutUnreadableRules(folder, skipList, ignored.folders(), logger, stamps);
    if (ruleFolders.length > 0) {
      await this.input.forgetFolders(ruleFolders.map((dir) => dir.slice(0, -1)));
    }
    const exclude = await skipList.writeExcludeFile();
    const listed = await listChangedFiles(git);
    this.candidate = { stamps, exclude };
    return listed;
  }

  /**
   * The indexed files git finds modified, while the stamps say no folder's entries and no rule file
   * changed since `trusted` was taken; `undefined` when they did change (a full look is needed; the skip
   * list is refreshed either way). git's stat of the indexed files runs beside ours of the folders: they
   * are independent (git lists indexed files only, by name, and writes nothing), and each is a look at
   * the folder as it is now. When the stamps differ, git is stopped: a rule file may now be a FIFO that
   * git, reading a racily clean file's attributes, would open and wait on.
   */
  private async quickLook(trusted: TrustedLook): Promise<string[] | undefined> {
    const stop = new AbortController();
    const modified = listModifiedFiles(this.input.git, stop.signal);
    modified.catch(() => undefined); // awaited below: not an unhandled rejection meanwhile
    const { skipList } = this.input;
    let same = false;
    try {
      await skipList.refresh();
      same = trusted.exclude === (await skipList.excludeText()) && (await trusted.stamps.unchanged());
    } finally {
      if (!same) {
        stop.abort();
        await modified.catch(() => undefined);
      }
    }
    return same ? await modified : undefined;
  }

  /**
   * After the snapshot of the last `list()`: `complete` when it took every file listed (none failed to
   * be read, moved while read, or was newly left out) — only then do the next looks trust its stamps.
   */
  settle(complete: boolean): void {
    if (!complete) {
      this.trusted = undefined;
    } else if (this.candidate?.stamps.trustworthy === true) {
      this.trusted = this.candidate;
    }
    this.candidate = undefined;
  }

  /**
   * Since the last `list()` began, the folders whose entries may have changed (`''`: the root), and those
   * still changing (see ./folderStamps). None after a quick look — it lists no untracked file, and a
   * change of entries would have made it a full one; `all` when the stamps cannot say.
   */
  changedFolders(): Promise<FolderChanges | 'all'> {
    return this.candidate?.stamps.changedFolders() ?? Promise.resolve({ changed: [], restless: [] });
  }

  /**
   * What the tree may lack of what was there, by name, so that none of it is ever taken for absent
   * (`/`-separated): the files there now but not in the tree (git could not read them, or they appeared
   * while the snapshot read their folder), and the folders whose entries went on changing (ending in `/`;
   * `''` for the root) — a file saved by deleting and writing it anew may have been missing at every look.
   * Only the folders whose entries changed are looked at; all of them when git could not read a file
   * (`unreadable`: it does not say which). The stamps are asked either way: a list of the files there now
   * is one look, and a save held half way hides its file from it. Stamps that cannot say make the root
   * still changing. Call after the snapshot of the last `list()`.
   */
  async unrecordedFiles(unreadable: boolean): Promise<string[]> {
    const folders = await this.changedFolders();
    const changed = unreadable || folders === 'all' ? 'all' : folders.changed;
    if (changed !== 'all' && changed.length === 0) {
      return [];
    }
    const specs =
      changed === 'all' || changed.length > UNRECORDED_LOOK_LIMIT || changed.includes('')
        ? []
        : changed.map(toLiteralPathspec);
    const listed = await this.input.git(['ls-files', '-z', '-o', '--exclude-standard', '--', ...specs]);
    const files = splitNul(listed).filter((rel) => !rel.endsWith('/'));
    return [...files, ...(folders === 'all' ? [''] : folders.restless)];
  }

  /** After git listed the ignored folders: their stamps are not needed (git does not enter them). */
  pruneIgnored(): void {
    const ignored = this.input.ignored.folders();
    const ruleFolders = new Set(this.input.skipList.ruleFolders());
    this.trusted?.stamps.prune((dir) => ignored.has(dir) && !ruleFolders.has(dir));
  }

  /** The trusted look (see `settle`), to be asked later whether it still holds (`stillHolds`). */
  trustedLook(): TrustedLook | undefined {
    return this.trusted;
  }

  /**
   * Whether `look` is still the trusted look and, since it was taken, no folder's entries, no rule file
   * and no file left out for its size changed: the files git has not indexed are still none.
   */
  async stillHolds(look: TrustedLook): Promise<boolean> {
    if (this.trusted !== look) {
      return false;
    }
    const { skipList } = this.input;
    // The folders' stamps are taken while the skip list is looked at again (both wait on other threads).
    const [exclude, stamped] = await Promise.all([
      skipList.refresh().then(() => skipList.excludeText()),
      look.stamps.unchanged(),
    ]);
    return look.exclude === exclude && stamped;
  }

  /** Empty stamps of entries of this folder, taken on the listing's worker thread. */
  newStamps(): FolderStamps {
    return new FolderStamps(this.input.folder, this.taker, this.input.now, this.input.clock);
  }

  /** The next look is a full one (the shadow index was rebuilt). */
  forget(): void {
    this.trusted = undefined;
    this.candidate = undefined;
  }

  /** Ends the stamps' worker thread. */
  dispose(): void {
    this.taker.dispose();
  }
}

/**
 * The folder's new and modified files as `ls-files -t` entries (`<tag> <path>`; `?` for untracked). To tell
 * whether a recently written file changed, git reads it — and one truncated under it kills git (SIGBUS),
 * again on its retry when it is rewritten in a loop. Then every tracked file is listed as possibly modified
 * (`ls-files -c` reads no file), and the staging that follows watches each of them as it reads them.
 */
export async function listChangedFiles(git: Git): Promise<string[]> {
  try {
    return splitNul(await git(['ls-files', '-z', '-t', '-o', '-m', '--exclude-standard']));
  } catch (error) {
    if (!killedBySignal(error)) {
      throw error;
    }
    const untracked = splitNul(await git(['ls-files', '-z', '-t', '-o', '--exclude-standard']));
    const tracked = splitNul(await git(['ls-files', '-z', '-t', '-c']));
    return [...untracked, ...tracked];
  }
}

/**
 * The indexed files whose stat differs from the index's (modified, deleted or only touched: a superset of
 * `ls-files -m`), tagged `C`. `diff-files` stats them on several threads (`core.preloadIndex`) and reads
 * no file for its names; killed anyway, every tracked file is listed, as above.
 */
async function listModifiedFiles(git: Git, stop: AbortSignal): Promise<string[]> {
  try {
    const modified = await git(['diff-files', '--name-only', '-z', '--no-renames'], stop);
    return splitNul(modified).map((rel) => `C ${rel}`);
  } catch (error) {
    if (stop.aborted || !killedBySignal(error)) {
      throw error;
    }
    return splitNul(await git(['ls-files', '-z', '-t', '-c'], stop));
  }
}

/** What a snapshot does with each listed file, by the skip list's reason for it (`undefined`: none). */
export interface SortedListing {
  /** Files to read into the snapshot. */
  readonly reading: string[];
  /** Untracked files newly left out (too large, a nested repository…): written to the exclude file. */
  readonly newlySkipped: Map<string, SkippedFile>;
  /**
   * Tracked files the agent replaced by a link: gone as files. The card lists each as replaced by the
   * link, and Undo puts the file back in place of the link (never writing through it).
   */
  readonly linkedNow: string[];
  /** Tracked files that grew past the bound: they keep their last snapshotted version. */
  readonly excludedNow: string[];
}

/** Sorts `ls-files -t` entries (`<tag> <path>`) by the skip list's `reasons` (one per entry). */
export function sortListed(
  listed: readonly string[],
  reasons: readonly (SkippedFile | undefined)[],
): SortedListing {
  const sorted: SortedListing = { reading: [], newlySkipped: new Map(), linkedNow: [], excludedNow: [] };
  listed.forEach((entry, index) => {
    const rel = entry.slice(2);
    const skip = reasons[index];
    if (skip === undefined) {
      sorted.reading.push(rel);
    } else if (entry.startsWith('?') && toExcludePattern(rel) !== undefined) {
      sorted.newlySkipped.set(rel, skip);
    } else if (skip.reason === 'symlink') {
      sorted.linkedNow.push(rel);
    } else {
      sorted.excludedNow.push(rel);
    }
  });
  return sorted;
}
