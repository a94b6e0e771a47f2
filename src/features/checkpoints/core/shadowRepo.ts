import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as z from 'zod';
import type { Logger } from '../../../core/ports';
import { IGNORED_TRAILER, IgnoredFiles } from './ignoredFiles';
import { SHADOW_ATTRIBUTES, toExcludePattern } from './excludeFile';
import { GitCommandError, runGit, splitNul, type ShadowLocation } from './gitRunner';
import { ownIndex } from './ownIndex';
import { SerialQueue } from '../../../core/serialQueue';
import { SkipList, exists, isSkipped, type SkippedFile } from './skipList';
import { diffTreeArgs, parseRawAndNumstat, type TreeChange } from './treeDiff';

export type { TreeChange } from './treeDiff';

export interface ShadowRepoOptions {
  readonly git: string;
  /** The workspace folder (absolute): the work tree. */
  readonly folder: string;
  /** The shadow repository's directory (GIT_DIR). */
  readonly gitDir: string;
  /** Files above this are not snapshotted. */
  readonly maxFileBytes: number;
  /** Binary files above this are not snapshotted. */
  readonly maxBinaryBytes: number;
  /** How many checkpoints keep a ref; older ones become unreachable and are collected by `git gc`. */
  readonly keepCheckpoints: number;
  readonly logger: Logger;
}

/** Names, in a checkpoint's commit message, the blob listing the files left out of it. */
const SKIPPED_TRAILER = 'acp-skipped:';
const CHECKPOINT_REFS = 'refs/checkpoints/';
/** Pruning and `git gc --auto` run once per this many checkpoints (and when the repository opens). */
const MAINTENANCE_EVERY = 25;
/** An index.lock older than this was left by a git that died (a crash, a killed window). */
const STALE_LOCK_MS = 60_000;

/**
 * The shadow git repository of one workspace folder: its own GIT_DIR in the extension's storage, the
 * folder as work tree, its own index. It only ever reads the folder; the user's `.git` is excluded and
 * only its `info/exclude` is read. Every operation runs in this folder's queue, one at a time.
 */
export class ShadowRepo {
  private readonly queue = new SerialQueue();
  private readonly location: ShadowLocation;
  private readonly skipList: SkipList;
  private checkpointsSinceMaintenance = 0;
  /**
   * The newest checkpoint this object made. Reusing it keeps pruning right: no commit is newer, so it
   * is the last to go, as a fresh one would be.
   */
  private newestCheckpoint:
    { tree: string; skippedBlob: string; ignoredBlob: string; commit: string } | undefined;
  private readonly ignored = new IgnoredFiles((args, input) => this.git(args, { input }));
  /** The skip list as a blob of the shadow repository, and the skip list's version it was made from. */
  private skippedBlob: { version: number; blob: string } | undefined;
  /** The tree of the shadow index as last written, while nothing has been staged since. */
  private lastTree: string | undefined;

  private constructor(private readonly options: ShadowRepoOptions) {
    this.location = {
      git: options.git,
      gitDir: options.gitDir,
      workTree: options.folder,
      indexFile: path.join(options.gitDir, 'index'), // until prepare() gives this object its own
      hooksDir: path.join(options.gitDir, 'acp-no-hooks'),
      homeDir: path.join(options.gitDir, 'acp-home'),
    };
    this.skipList = new SkipList(options.folder, options.gitDir, options);
  }

  /** The nested repositories the skip list leaves out (`/`-separated, relative, ending in `/`). */
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
    // Not awaited: packing the objects of a large first checkpoint can take seconds, which should not
    // hold up the store's creation (the next operation waits for it in the queue).
    void repo.queue.run(() => repo.maintain());
    return repo;
  }

  /**
   * Snapshots the folder and keeps it as a commit with a ref; returns the commit's hash. When nothing
   * changed since the newest checkpoint, that checkpoint is the answer: same state, same id, and no git
   * process beyond the one that looks for changes.
   */
  checkpoint(): Promise<string> {
    return this.queue.run(async () => {
      const tree = await this.snapshotTree();
      const skippedBlob = this.skipList.size === 0 ? '' : await this.skipListBlob();
      const ignoredBlob = await this.ignored.blob();
      const newest = this.newestCheckpoint;
      if (newest?.tree === tree && newest.skippedBlob === skippedBlob && newest.ignoredBlob === ignoredBlob) {
        return newest.commit;
      }
      const trailers = [
        ...(skippedBlob === '' ? [] : [`${SKIPPED_TRAILER} ${skippedBlob}`]),
        ...(ignoredBlob === '' ? [] : [`${IGNORED_TRAILER} ${ignoredBlob}`]),
      ];
      const message = trailers.length === 0 ? 'checkpoint' : `checkpoint\n\n${trailers.join('\n')}`;
      const commit = (await this.git(['commit-tree', '--no-gpg-sign', '-m', message, tree])).trim();
      await this.git(['update-ref', `${CHECKPOINT_REFS}${commit}`, commit]);
      this.newestCheckpoint = { tree, skippedBlob, ignoredBlob, commit };
      if (++this.checkpointsSinceMaintenance >= MAINTENANCE_EVERY) {
        this.checkpointsSinceMaintenance = 0;
        // Queued behind this checkpoint, not awaited by it: the prompt is not delayed by housekeeping.
        void this.queue.run(() => this.maintain());
      }
      return commit;
    });
  }

  /** Files that differ between commit `from` and commit `to`, or the folder as it is now. */
  changes(from: string, to?: string): Promise<TreeChange[]> {
    return this.queue.run(async () => {
      const target = to ?? (await this.snapshotTree());
      const changes = await this.diff(from, target);
      if (!changes.some((change) => change.kind === 'created')) {
        return changes;
      }
      // A file left out at `from` (too large, a link, in a nested repository) that is snapshotted now is
      // not new: listing it as created would let "Undo" delete a file that was there before.
      const skippedThen = await this.skippedAt(from);
      // A file ignored at `from` (the agent un-ignored it since) was not recorded: it may have existed.
      const ignoredThen = await this.ignored.at(from);
      return changes
        .filter((change) => change.kind !== 'created' || !isSkipped(change.rel, skippedThen))
        .map((change) =>
          change.kind === 'created' && (ignoredThen === 'unknown' || isSkipped(change.rel, ignoredThen))
            ? { ...change, beforeUnknown: true }
            : change,
        );
    });
  }

  /** The bytes of `rel` in commit `commit`; `undefined` when it was not there (or was not snapshotted). */
  read(commit: string, rel: string): Promise<Buffer | undefined> {
    return this.queue.run(async () => {
      if (/[\r\n]/.test(rel)) {
        // `--batch` reads names line by line; a name with a newline or CR goes as an argument instead.
        const { stdout, exitCode } = await this.runGit(['cat-file', 'blob', `${commit}:${rel}`], {
          okExitCodes: [128],
        });
        return exitCode === 0 ? Buffer.from(stdout) : undefined;
      }
      const { stdout } = await this.runGit(['cat-file', '--batch'], { input: `${commit}:${rel}\n` });
      const header = stdout.subarray(0, stdout.indexOf(10)).toString('utf8');
      const match = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
      if (match?.[1] !== 'blob') {
        return undefined;
      }
      const start = header.length + 1;
      return Buffer.from(stdout.subarray(start, start + Number(match[2])));
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

  /** Resolves when every queued operation has finished. */
  idle(): Promise<void> {
    return this.queue.idle();
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
    await this.removeStaleLock();
    await this.skipList.load();
  }

  /**
   * The folder's tree now. The shadow index is only a cache: when git fails on it (a corrupt index, a
   * lock left by a crash — only this queue runs git here, so any lock is stale), it is dropped and the
   * snapshot is taken again from scratch, once.
   */
  private async snapshotTree(): Promise<string> {
    try {
      return await this.snapshotTreeOnce();
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
      await rm(`${this.location.indexFile}.lock`, { force: true });
      await rm(this.location.indexFile, { force: true });
      return this.snapshotTreeOnce();
    }
  }

  /**
   * Stages the folder as it is now into the shadow index and writes its tree. Only files git reports as
   * new or modified are looked at (stat, and the first 8000 bytes of the large ones); the rest is git's
   * stat cache, which is what makes a no-change snapshot of a large folder cheap.
   */
  private async snapshotTreeOnce(): Promise<string> {
    await this.skipList.refresh();
    await this.skipList.writeExcludeFile();
    const listed = splitNul(await this.git(['ls-files', '-z', '-t', '-o', '-m', '--exclude-standard']));
    const excludedNow: string[] = [];
    const linkedNow: string[] = [];
    let toStage = 0;
    const newlySkipped = new Map<string, SkippedFile>();
    const reasons = await this.skipList.reasonsFor(listed.map((entry) => entry.slice(2)));
    listed.forEach((entry, index) => {
      const tag = entry.slice(0, 1);
      const rel = entry.slice(2);
      const skip = reasons[index];
      if (skip === undefined) {
        toStage++;
      } else if (tag === '?' && toExcludePattern(rel) !== undefined) {
        newlySkipped.set(rel, skip);
      } else if (skip.reason === 'symlink') {
        // A tracked file the agent replaced by a link is gone as a file: the card lists it as deleted,
        // and Undo puts the file back in place of the link (never writing through it).
        linkedNow.push(rel);
      } else {
        // A tracked file that grew past the bound keeps its last snapshotted version.
        excludedNow.push(rel);
      }
    });
    if (linkedNow.length > 0) {
      this.lastTree = undefined;
      await this.git(
        [
          'rm',
          '--cached',
          '--force',
          '--quiet',
          '--ignore-unmatch',
          '--pathspec-from-file=-',
          '--pathspec-file-nul',
        ],
        {
          input: `${linkedNow.map((rel) => `:(literal)${rel}`).join('\0')}\0`,
        },
      );
    }
    if (newlySkipped.size > 0) {
      await this.skipList.add(newlySkipped);
      await this.skipList.writeExcludeFile();
    }
    if (toStage > 0) {
      const pathspecs = ['.', ...excludedNow.map((rel) => `:(exclude,literal)${rel}`)];
      this.lastTree = undefined;
      await this.stage(pathspecs);
    }
    // Nothing staged since the last tree was written (only this object writes the shadow index): same tree.
    this.lastTree ??= (await this.git(['write-tree'])).trim();
    return this.lastTree;
  }

  /**
   * `git add -A` of the pathspecs. A file git cannot read (permissions) is left out with a warning rather
   * than failing the checkpoint. A git killed by the timeout leaves the index lock behind: it is removed
   * here, since only this queue ever runs git on this repository.
   */
  private async stage(pathspecs: readonly string[]): Promise<void> {
    try {
      const { exitCode } = await this.runGit(
        ['add', '-A', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'],
        { input: `${pathspecs.join('\0')}\0`, okExitCodes: [1] },
      );
      if (exitCode === 1) {
        this.options.logger.warn(
          `Some files of ${this.options.folder} could not be read for the checkpoint.`,
        );
      }
    } catch (error) {
      if (error instanceof GitCommandError && error.exitCode === null) {
        await rm(`${this.location.indexFile}.lock`, { force: true });
      }
      throw error;
    }
  }

  /** The skip list stored with the checkpoint (a blob named in its commit message). */
  private async skipListBlob(): Promise<string> {
    const version = this.skipList.version;
    if (this.skippedBlob?.version !== version) {
      const input = JSON.stringify(this.skipList.paths());
      this.skippedBlob = {
        version,
        blob: (await this.git(['hash-object', '-w', '--stdin'], { input })).trim(),
      };
    }
    return this.skippedBlob.blob;
  }

  /** What was left out of the checkpoint `commit`. */
  private async skippedAt(commit: string): Promise<ReadonlySet<string>> {
    const message = await this.git(['cat-file', 'commit', commit]);
    const blob = new RegExp(`^${SKIPPED_TRAILER} ([0-9a-f]+)$`, 'm').exec(message)?.[1];
    if (blob === undefined) {
      return new Set();
    }
    try {
      const parsed = z.array(z.string()).safeParse(JSON.parse(await this.git(['cat-file', 'blob', blob])));
      return new Set(parsed.success ? parsed.data : []);
    } catch {
      return new Set(); // collected or unreadable: nothing more is known
    }
  }

  private async diff(from: string, to: string): Promise<TreeChange[]> {
    return parseRawAndNumstat(splitNul(await this.git(diffTreeArgs(from, to))));
  }

  /** Keeps the newest checkpoints' refs, drops the rest, and lets `git gc --auto` pack and collect. */
  private async maintain(): Promise<void> {
    try {
      const refs = (
        await this.git(['for-each-ref', '--sort=-committerdate', '--format=%(refname)', CHECKPOINT_REFS])
      )
        .split('\n')
        .filter((ref) => ref !== '');
      const old = refs.slice(this.options.keepCheckpoints);
      if (old.length > 0) {
        await this.git(['update-ref', '--stdin'], { input: old.map((ref) => `delete ${ref}\n`).join('') });
      }
      await this.git(['gc', '--auto', '--quiet']);
    } catch (error) {
      this.options.logger.warn(`Checkpoint housekeeping in ${this.options.gitDir} failed: ${String(error)}`);
    }
  }

  private async removeStaleLock(): Promise<void> {
    const lock = `${this.location.indexFile}.lock`;
    try {
      const info = await stat(lock);
      if (Date.now() - info.mtimeMs > STALE_LOCK_MS) {
        this.options.logger.warn(`Removing a stale ${lock} left by an interrupted checkpoint.`);
        await rm(lock, { force: true });
      }
    } catch {
      // no lock
    }
  }

  private async git(args: readonly string[], options: { input?: string } = {}): Promise<string> {
    return (await this.runGit(args, options)).stdout.toString('utf8');
  }

  private runGit(args: readonly string[], options: { input?: string; okExitCodes?: readonly number[] } = {}) {
    return runGit(this.location, args, options);
  }
}
