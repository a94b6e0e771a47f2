import { mkdir, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { excludePathspec, toLiteralPathspec } from './pathspecs';
import { ChangeListing, sortListed } from './changedFiles';
import { CheckpointsAhead } from './checkpointProof';
import { stageSteadily } from './steadyStaging';
import { forgetStatData } from './forgetStatData';
import { CheckpointLists } from './checkpointLists';
import { SHADOW_ATTRIBUTES } from './excludeFile';
import { GitCommandError, runGit, splitNul, type GitRunOptions, type ShadowLocation } from './gitRunner';
import { keepNewestCheckpoints, removeStaleLock } from './maintenance';
import { BackgroundPacking } from './backgroundPacking';
import { addToIndex } from './gitAdd';
import { CheckpointCommits } from './checkpointCommits';
import { readBlob } from './blobReader';
import { ownIndex } from './ownIndex';
import { SerialQueue } from '../../../core/util/serialQueue';
import { SkipList, exists } from './skipList';
import { diffTreeArgs, parseRawAndNumstat, whatIsKnown, type TreeChange } from './treeDiff';
import { readLinks, withLinkChanges } from './linkTargets';
import type { ShadowRepoOptions } from './shadowRepoOptions';

export type { TreeChange } from './treeDiff';
export type { ShadowRepoOptions } from './shadowRepoOptions';

const CHECKPOINT_REFS = 'refs/checkpoints/';
/** Up to this many changed files are staged by name; more, as the whole folder. */
const NAMED_STAGING_LIMIT = 2000;
/** Pruning old refs runs once per this many checkpoints (and when the repository opens). */
const MAINTENANCE_EVERY = 25;

/**
 * The shadow git repository of one workspace folder: its own GIT_DIR in the extension's storage, the
 * folder as work tree, its own index. It only ever reads the folder; the user's `.git` is excluded and
 * only its `info/exclude` is read. Every operation runs in this folder's queue, one at a time.
 */
export class ShadowRepo {
  private readonly queue = new SerialQueue();
  private readonly location: ShadowLocation;
  private readonly skipList: SkipList;
  private readonly packing: BackgroundPacking;
  private checkpointsSinceMaintenance = 0;
  /**
   * The newest checkpoint this object made. Reusing it keeps pruning right: no commit is newer, so it
   * is the last to go, as a fresh one would be.
   */
  private newestCheckpoint: { tree: string; trailers: string; commit: string } | undefined;
  /** The checkpoints taken ahead of Send: the newest one's proof, one no Send used yet. */
  private readonly ahead: CheckpointsAhead;
  private readonly commits = new CheckpointCommits((args, run) => this.runGit(args, run), CHECKPOINT_REFS);
  private readonly lists = new CheckpointLists((args, input) => this.git(args, { input }));
  /** Files that moved while the newest snapshot read them: read again by the next one. */
  private unsure = new Set<string>();
  /** The tree of the shadow index as last written, while nothing has been staged since. */
  private lastTree: string | undefined;
  private readonly listing: ChangeListing;
  /** Whether `git add` could not read some file since the snapshot began. */
  private unreadable = false;
  /** Files there at the newest snapshot but not in its tree (git could not read them). */
  private unrecorded: string[] = [];
  /** The folder's symbolic links at the newest snapshot, with their targets. */
  private links: ReadonlyMap<string, string> = new Map();

  private constructor(private readonly options: ShadowRepoOptions) {
    this.location = {
      git: options.git,
      gitDir: options.gitDir,
      workTree: options.folder,
      indexFile: path.join(options.gitDir, 'index'), // until prepare() gives this object its own
      ...(options.gitTimeoutMs === undefined ? {} : { timeoutMs: options.gitTimeoutMs }),
      hooksDir: path.join(options.gitDir, 'acp-no-hooks'),
      homeDir: path.join(options.gitDir, 'acp-home'),
    };
    this.skipList = new SkipList(options.folder, options.gitDir, options);
    this.listing = new ChangeListing({
      folder: options.folder,
      skipList: this.skipList,
      ignored: this.lists.ignored,
      logger: options.logger,
      git: async (args, stop) =>
        (await this.runGit(args, stop === undefined ? {} : { signal: stop })).stdout.toString('utf8'),
      forgetFolders: (dirs) => this.forgetFolders(dirs),
      ...(options.now === undefined ? {} : { now: options.now }),
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.stampAnswerTimer === undefined ? {} : { answerTimer: options.stampAnswerTimer }),
    });
    this.ahead = new CheckpointsAhead(this.listing, async (commit) => {
      await this.runGit(['update-ref', '-d', `${CHECKPOINT_REFS}${commit}`, commit]);
    });
    this.packing = new BackgroundPacking((args, runOptions) => this.runGit(args, runOptions), options);
  }

  /**
   * The folders the skip list leaves out — nested repositories, and folders whose `.gitignore` or
   * `.gitattributes` git must not open (`/`-separated, relative, ending in `/`).
   */
  nestedRepositories(): string[] {
    return this.skipList.paths().filter((rel) => rel.endsWith('/'));
  }

  get folder(): string {
    return this.options.folder;
  }

  /** Creates the shadow repository on first use, or takes up the existing one. */
  static async open(options: ShadowRepoOptions): Promise<ShadowRepo> {
    const repo = new ShadowRepo(options);
    await repo.queue.run(() => repo.prepare());
    // Not awaited: the store is ready at once; pruning refs is quick, the pack after it runs beside the queue.
    void repo.queue.run(() => repo.maintain());
    return repo;
  }

  /**
   * Snapshots the folder and keeps it as a commit with a ref; returns the commit's hash. When nothing
   * changed since the newest checkpoint, that checkpoint is the answer: same state, same id, and no git
   * process beyond the one that looks for changes — none at all when one taken ahead (`speculate`) is
   * proven to still hold.
   */
  checkpoint(): Promise<string> {
    return this.queue.run(async () => {
      const commit = (await this.ahead.proven(this.newestCheckpoint?.commit)) ?? (await this.checkpointNow());
      await this.ahead.sent(commit);
      return commit;
    });
  }

  /**
   * A checkpoint taken ahead (the user is writing a message), with the proof that lets the checkpoint at
   * Send be this one while nothing changed (./checkpointProof) — no git process on the send path then.
   */
  speculate(): Promise<void> {
    return this.queue.run(async () => {
      const newest = this.newestCheckpoint?.commit;
      if ((await this.ahead.proven(newest)) !== undefined) {
        return; // the one taken ahead still holds: a click into the box costs a look at the stamps only
      }
      // Bare: listing the index reads no file of the folder.
      const indexed = async () =>
        splitNul((await this.runGit(['ls-files', '-z', '--cached'], { bare: true })).stdout.toString('utf8'));
      await this.ahead.take(indexed, () => this.checkpointNow(), newest);
    });
  }

  /** Snapshots the folder now (see `checkpoint`); run in the queue. */
  private async checkpointNow(): Promise<string> {
    const tree = await this.snapshotTree();
    const trailers = await this.lists.trailers({
      skipped: this.skipList.paths(),
      unsure: [...this.unsure],
      unrecorded: this.unrecorded,
      links: this.links,
    });
    this.listing.pruneIgnored();
    const newest = this.newestCheckpoint;
    if (newest?.tree === tree && newest.trailers === trailers) {
      return newest.commit;
    }
    const message = trailers === '' ? 'checkpoint' : `checkpoint\n\n${trailers}`;
    const commit = await this.commits.create(message, tree);
    this.newestCheckpoint = { tree, trailers, commit };
    // A large first checkpoint leaves many loose objects: packed now, beside the queue.
    void this.packing.start(true);
    if (++this.checkpointsSinceMaintenance >= MAINTENANCE_EVERY) {
      this.checkpointsSinceMaintenance = 0;
      // Queued behind this checkpoint, not awaited by it: the prompt is not delayed by housekeeping.
      void this.queue.run(() => this.maintain());
    }
    return commit;
  }

  /** Files that differ between commit `from` and commit `to`, or the folder as it is now. */
  changes(from: string, to?: string): Promise<TreeChange[]> {
    if (to === from) {
      // A turn that changed nothing ends on the checkpoint it began with: no git process need say so.
      return Promise.resolve([]);
    }
    return this.queue.run(async () => {
      const target = to ?? (await this.snapshotTree(false));
      const changes = await this.diff(from, target);
      if (changes.length === 0 && this.links.size === 0 && to === undefined) {
        return changes; // nothing changed, and no link to look at (the quick answer of a live list)
      }
      const ends = await this.lists.ends(from, to, { skipped: this.skipList.paths(), links: this.links });
      return whatIsKnown(withLinkChanges(changes, ends.linksBefore, ends.linksAfter), ends);
    });
  }

  /** The bytes of `rel` in commit `commit`; `undefined` when it was not there (or was not snapshotted). */
  read(commit: string, rel: string): Promise<Buffer | undefined> {
    return this.queue.run(async () => {
      if (await this.lists.mayBeTorn(commit, rel)) {
        return undefined; // never handed out as what the file was
      }
      return readBlob((args, options) => this.runGit(args, options), commit, rel);
    });
  }

  /** Whether `commit` is a commit of this repository (a pruned checkpoint may already be gone). */
  hasCommit(commit: string): Promise<boolean> {
    return this.queue.run(async () => {
      const { exitCode } = await this.runGit(['cat-file', '-e', `${commit}^{commit}`], {
        okExitCodes: [1, 128],
      });
      return exitCode === 0;
    });
  }

  /** Resolves when every queued operation, and a pack running beside them, has finished. */
  async idle(): Promise<void> {
    await this.queue.idle();
    await this.packing.idle();
  }

  /** Stops a running pack; queued operations still finish. */
  dispose(): void {
    this.packing.dispose();
    this.listing.dispose();
  }

  private async prepare(): Promise<void> {
    const { gitDir } = this.options;
    await mkdir(gitDir, { recursive: true });
    await mkdir(this.location.hooksDir, { recursive: true });
    await mkdir(this.location.homeDir, { recursive: true });
    if (!(await exists(path.join(gitDir, 'HEAD')))) {
      // No template: no sample hooks, no default info/exclude.
      await this.git(['init', '--quiet', `--template=${this.location.hooksDir}`]);
      await writeFile(path.join(gitDir, 'acp-folder.txt'), `${this.options.folder}\n`);
    }
    this.location.indexFile = await ownIndex(gitDir);
    await mkdir(path.join(gitDir, 'info'), { recursive: true });
    await writeFile(path.join(gitDir, 'info', 'attributes'), SHADOW_ATTRIBUTES);
    await removeStaleLock(`${this.location.indexFile}.lock`, this.options.logger);
    await this.skipList.load();
  }

  /**
   * The folder's tree now. The shadow index is only a cache: when git fails on it (a corrupt index, a
   * lock left by a crash — only this queue runs git here, so any lock is stale), it is dropped and the
   * snapshot is taken again from scratch, once. `forCheckpoint`: its lists are kept with a checkpoint (a
   * look at the folder now, to compare with one, needs only the tree).
   */
  private async snapshotTree(forCheckpoint = true): Promise<string> {
    try {
      return await this.snapshotTreeOnce(forCheckpoint);
    } catch (error) {
      if (
        !(error instanceof GitCommandError) ||
        error.exitCode === null ||
        !(await exists(this.options.folder))
      ) {
        throw error;
      }
      this.options.logger.warn(
        `Rebuilding the checkpoint index of ${this.options.folder} after: ${error.message}`,
      );
      this.lastTree = undefined;
      this.listing.forget();
      await rm(`${this.location.indexFile}.lock`, { force: true });
      await rm(this.location.indexFile, { force: true });
      return this.snapshotTreeOnce(forCheckpoint);
    }
  }

  /**
   * Stages the folder as it is now into the shadow index and writes its tree. Only files git reports as
   * new or modified are looked at (stat, and the first 8000 bytes of the large ones); the rest is git's
   * stat cache, which is what makes a no-change snapshot of a large folder cheap.
   */
  private async snapshotTreeOnce(forCheckpoint: boolean): Promise<string> {
    this.unreadable = false;
    const listed = await this.listing.list();
    const reasons = await this.skipList.reasonsFor(listed.map((entry) => entry.slice(2)));
    const { reading, newlySkipped, linkedNow, excludedNow } = sortListed(listed, reasons);
    if (linkedNow.length > 0) {
      this.lastTree = undefined;
      const untrack = ['rm', '--cached', '--force', '--quiet', '--ignore-unmatch'];
      await this.git([...untrack, '--pathspec-from-file=-', '--pathspec-file-nul'], {
        input: `${linkedNow.map(toLiteralPathspec).join('\0')}\0`,
      });
    }
    if (newlySkipped.size > 0) {
      await this.skipList.add(newlySkipped);
      await this.skipList.writeExcludeFile();
    }
    if (reading.length > 0 || this.unsure.size > 0) {
      // The listed files by name, so git reads no file we do not watch (one changed since the listing
      // waits for the next snapshot); past a bound, the whole folder — matching thousands of names is slow.
      const pathspecs =
        reading.length <= NAMED_STAGING_LIMIT
          ? reading.map(toLiteralPathspec)
          : ['.', ...excludedNow.map(excludePathspec)];
      this.lastTree = undefined;
      const staged = await stageSteadily({
        folder: this.options.folder,
        add: (specs, renormalize) => this.stage(specs, renormalize),
        pathspecs,
        reading,
        unsureBefore: this.unsure,
      });
      this.unsure = staged.unsure;
      const bare = async (args: readonly string[], input?: string) =>
        (
          await this.runGit(args, { bare: true, ...(input === undefined ? {} : { input }) })
        ).stdout.toString();
      await forgetStatData(bare, [...staged.recent]);
      if (this.unsure.size > 0) {
        this.options.logger.warn(
          `${this.unsure.size} files of ${this.options.folder} changed while the checkpoint read them: it is unsure of them.`,
        );
      }
    }
    // Only a checkpoint's list (a look for unrecorded files may wait for a save held half way).
    this.unrecorded = forCheckpoint ? await this.listing.unrecordedFiles(this.unreadable) : [];
    this.links = await readLinks(this.options.folder, [...this.skipList.links(), ...linkedNow]);
    // Untracked files left out (newly skipped or unnameable) are looked at again by a full look.
    const leftOut = listed.some((entry, index) => entry.startsWith('?') && reasons[index] !== undefined);
    this.listing.settle(!this.unreadable && this.unsure.size === 0 && !leftOut && linkedNow.length === 0);
    // Nothing staged since the last tree was written (only this object writes the shadow index): same tree.
    this.lastTree ??= (await this.git(['write-tree'])).trim();
    return this.lastTree;
  }

  /** `git add` of the pathspecs (see ./gitAdd); a file git could not read is noted and logged. */
  private async stage(pathspecs: readonly string[], renormalize = false): Promise<void> {
    const { unreadable } = await addToIndex(
      (args, options) => this.runGit(args, options),
      this.location.indexFile,
      pathspecs,
      renormalize,
    );
    if (unreadable) {
      this.unreadable = true;
      this.options.logger.warn(`Some files of ${this.options.folder} could not be read for the checkpoint.`);
    }
  }

  /**
   * Takes the files of `dirs` out of the shadow index. Run bare, from the shadow repository: writing an
   * index makes git re-read files written within its clock tick, with their folder's `.gitattributes` —
   * a FIFO there would hang it.
   */
  private async forgetFolders(dirs: readonly string[]): Promise<void> {
    const { stdout } = await this.runGit(['ls-files', '-z', '--', ...dirs.map(toLiteralPathspec)], {
      bare: true,
    });
    if (stdout.length > 0) {
      this.lastTree = undefined;
      await this.runGit(['update-index', '-z', '--force-remove', '--stdin'], { input: stdout, bare: true });
    }
  }

  private async diff(from: string, to: string): Promise<TreeChange[]> {
    // Bare: the folder's `.gitattributes` (perhaps a FIFO by now) are not read for two stored trees.
    const { stdout } = await this.runGit(diffTreeArgs(from, to), { bare: true });
    return parseRawAndNumstat(splitNul(stdout));
  }

  private maintain(): Promise<void> {
    return keepNewestCheckpoints((args, input) => this.git(args, { input }), this.packing, {
      refs: CHECKPOINT_REFS,
      keep: this.options.keepCheckpoints,
      gitDir: this.options.gitDir,
      logger: this.options.logger,
    });
  }

  private async git(args: readonly string[], options: { input?: string } = {}): Promise<string> {
    return (await this.runGit(args, options)).stdout.toString('utf8');
  }

  private runGit(args: readonly string[], options: GitRunOptions = {}) {
    return runGit(this.location, args, options);
  }
}
