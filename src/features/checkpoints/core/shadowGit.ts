import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { isInside, isLexicallyWithin } from '../../../core/files/pathConfinement';
import type { Logger } from '../../../core/ports';
import type { Clock } from '../../../core/util/clock';
import type { AnswerTimer } from './stampTaker';
import { CheckpointNotFoundError } from './errors';
import { ShadowRepo, type TreeChange } from './shadowRepo';
import type { CheckpointStore, FileChangeStat } from './types';

export interface ShadowGitStoreOptions {
  /** The workspace folders (absolute). */
  readonly folders: readonly string[];
  /** The extension's storage directory; repositories go to `<storageDir>/checkpoints/<hash of folder>/`. */
  readonly storageDir: string;
  readonly logger: Logger;
  /** The git executable (default `git` on PATH). */
  readonly git?: string;
  /** Files above this are not snapshotted (default 5 MiB). */
  readonly maxFileBytes?: number;
  /** Binary files above this are not snapshotted (default 1 MiB). */
  readonly maxBinaryBytes?: number;
  /** Checkpoints kept per folder (default 200); older ids answer `CheckpointNotFoundError`. */
  readonly keepCheckpoints?: number;
  /** How long one git command may run (default 120 s). */
  readonly gitTimeoutMs?: number;
  /** The wall clock, in ms (tests run it ahead, so that stamps just taken count as settled). */
  readonly now?: () => number;
  /** Times the wait for a save held half way (see ./folderStamps); tests move it by hand. */
  readonly clock?: Clock;
  /** Starts the wait for the folder stamps' answer (see ./stampTaker); tests expire it at will. */
  readonly stampAnswerTimer?: AnswerTimer;
  /** Loose objects that make a shadow repository due for packing (default git's `gc.auto`; tests). */
  readonly packLooseObjects?: number;
}

export const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024;
export const DEFAULT_MAX_BINARY_BYTES = 1024 * 1024;
export const DEFAULT_KEEP_CHECKPOINTS = 200;

const ID_PREFIX = 'git1:';

/**
 * Checkpoints of every workspace folder in shadow git repositories (one per folder, see `ShadowRepo`).
 * A checkpoint id names one commit per folder: `git1:<folder key>.<commit>,…`.
 *
 * Concurrency: operations on one folder run one at a time, in call order. Two chats whose turns overlap
 * on the same folder each compare their own checkpoint with the folder as it is when they ask, so each
 * list holds every file changed during its window — including the other chat's changes in the overlap.
 * Nothing is lost or attributed twice by the store; telling the two agents apart is not possible from
 * the disk alone.
 */
export class ShadowGitCheckpointStore implements CheckpointStore {
  readonly coverage = 'full' as const;
  private disposed = false;

  private constructor(
    private readonly repos: ReadonlyMap<string, ShadowRepo>,
    private readonly logger: Logger,
  ) {}

  untrackedFolders(): string[] {
    return [...this.repos.values()].flatMap((repo) =>
      repo.nestedRepositories().map((rel) => path.join(repo.folder, rel.slice(0, -1))),
    );
  }

  get folders(): readonly string[] {
    return [...this.repos.values()].map((repo) => repo.folder);
  }

  /** Opens (creating on first use) the shadow repository of each folder. Throws when git cannot. */
  static async open(options: ShadowGitStoreOptions): Promise<ShadowGitCheckpointStore> {
    const repos = new Map<string, ShadowRepo>();
    for (const folder of new Set(options.folders.map((f) => path.resolve(f)))) {
      const key = folderKey(folder);
      repos.set(
        key,
        await ShadowRepo.open({
          git: options.git ?? 'git',
          folder,
          gitDir: path.join(options.storageDir, 'checkpoints', key),
          maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
          maxBinaryBytes: options.maxBinaryBytes ?? DEFAULT_MAX_BINARY_BYTES,
          keepCheckpoints: Math.max(1, options.keepCheckpoints ?? DEFAULT_KEEP_CHECKPOINTS),
          logger: options.logger,
          ...(options.gitTimeoutMs === undefined ? {} : { gitTimeoutMs: options.gitTimeoutMs }),
          ...(options.now === undefined ? {} : { now: options.now }),
          ...(options.clock === undefined ? {} : { clock: options.clock }),
          ...(options.stampAnswerTimer === undefined ? {} : { stampAnswerTimer: options.stampAnswerTimer }),
          ...(options.packLooseObjects === undefined ? {} : { packLooseObjects: options.packLooseObjects }),
        }),
      );
    }
    return new ShadowGitCheckpointStore(repos, options.logger);
  }

  /**
   * Snapshots every folder. A folder that cannot be snapshotted (deleted, unreadable) is logged and left
   * out of the id, so the other folders still get their checkpoint.
   */
  async create(): Promise<string> {
    this.assertOpen();
    const failures: { folder: string; why: string }[] = [];
    const entries = await Promise.all(
      [...this.repos].map(async ([key, repo]) => {
        try {
          return `${key}.${await repo.checkpoint()}`;
        } catch (error) {
          this.logger.warn(`No checkpoint of ${repo.folder}: ${String(error)}`);
          failures.push({
            folder: path.basename(repo.folder),
            why: error instanceof Error ? error.message : String(error),
          });
          return undefined;
        }
      }),
    );
    const made = entries.filter((entry) => entry !== undefined);
    if (made.length === 0 && this.repos.size > 0) {
      // The reason goes on the turn ("No checkpoint for this turn: …"), not only in the log.
      throw new Error(
        failures.length === 1
          ? (failures[0]?.why ?? '')
          : failures.map((failure) => `${failure.folder}: ${failure.why}`).join('; '),
      );
    }
    return `${ID_PREFIX}${made.join(',')}`;
  }

  /**
   * Takes a checkpoint of every folder ahead of the next `create` (the user is writing a message), which
   * `create` then answers with while each folder is proven unchanged. A folder that fails is logged.
   */
  async speculate(): Promise<void> {
    this.assertOpen();
    await Promise.all(
      [...this.repos.values()].map((repo) =>
        repo.speculate().catch((error: unknown) => {
          this.logger.warn(`No checkpoint ahead of ${repo.folder}: ${String(error)}`);
        }),
      ),
    );
  }

  async changes(from: string, to?: string): Promise<FileChangeStat[]> {
    this.assertOpen();
    const fromCommits = decodeId(from);
    const toCommits = to === undefined ? undefined : decodeId(to);
    const perFolder = await Promise.all(
      [...this.repos].map(async ([key, repo]) => {
        const fromCommit = fromCommits.get(key);
        const toCommit = toCommits?.get(key);
        if (fromCommit === undefined || (toCommits !== undefined && toCommit === undefined)) {
          return []; // the folder was not in the workspace at one of the two points
        }
        try {
          const changes = await repo.changes(fromCommit, toCommit);
          return await Promise.all(changes.map((change) => toStat(repo.folder, change)));
        } catch (error) {
          const missing = !(await repo.hasCommit(fromCommit))
            ? from
            : toCommit !== undefined && !(await repo.hasCommit(toCommit))
              ? to
              : undefined;
          throw missing === undefined ? error : new CheckpointNotFoundError(missing);
        }
      }),
    );
    return withoutNestedDuplicates(
      perFolder.flat(),
      [...this.repos.values()].map((repo) => repo.folder),
    ).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async read(id: string, filePath: string): Promise<Uint8Array | undefined> {
    this.assertOpen();
    const commits = decodeId(id);
    const absolute = path.resolve(filePath);
    const repo = innermostRepo([...this.repos.values()], absolute);
    const commit = repo && commits.get(folderKey(repo.folder));
    if (repo === undefined || commit === undefined) {
      return undefined;
    }
    const rel = path.relative(repo.folder, absolute).split(path.sep).join('/');
    const bytes = await repo.read(commit, rel);
    if (bytes === undefined && !(await repo.hasCommit(commit))) {
      // Not "the file did not exist": the caller would delete a file it cannot know about.
      throw new CheckpointNotFoundError(id);
    }
    return bytes === undefined ? undefined : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** The shadow repositories see every file; nothing to record. */
  async note(): Promise<void> {}

  /** Resolves when every queued git operation has finished (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.all([...this.repos.values()].map((repo) => repo.idle()));
  }

  /**
   * Refuses new operations and stops a pack running in the background (git cleans up after it). Running
   * checkpoint commands are left to finish: killing one mid-write would leave an index.lock behind.
   */
  dispose(): void {
    this.disposed = true;
    for (const repo of this.repos.values()) {
      repo.dispose();
    }
  }

  private assertOpen(): void {
    if (this.disposed) {
      throw new Error('The checkpoint store is closed.');
    }
  }
}

/** A stable short name for a folder: the name of its shadow repository's directory. */
export function folderKey(folder: string): string {
  const normalized = path.resolve(folder);
  const comparable = process.platform === 'win32' ? normalized.toLowerCase() : normalized;
  return createHash('sha256').update(comparable).digest('hex').slice(0, 16);
}

function decodeId(id: string): Map<string, string> {
  const commits = new Map<string, string>();
  if (!id.startsWith(ID_PREFIX)) {
    throw new CheckpointNotFoundError(id);
  }
  const body = id.slice(ID_PREFIX.length);
  for (const entry of body === '' ? [] : body.split(',')) {
    const match = /^([0-9a-f]{16})\.([0-9a-f]{40}|[0-9a-f]{64})$/.exec(entry);
    if (!match) {
      throw new CheckpointNotFoundError(id);
    }
    commits.set(match[1]!, match[2]!);
  }
  return commits;
}

async function toStat(folder: string, change: TreeChange): Promise<FileChangeStat> {
  const file = path.join(folder, ...change.rel.split('/'));
  return {
    path: file,
    folder,
    kind: change.kind,
    added: change.added,
    removed: change.removed,
    binary: change.binary,
    ...(change.beforeUnknown ? { beforeUnknown: true } : {}),
    ...(change.unsure ? { unsure: true } : {}),
    ...(change.unrecorded ? { unrecorded: true } : {}),
    ...(change.link
      ? { link: { ...change.link, outside: await leadsOutside(file, change.link.target, folder) } }
      : {}),
  };
}

/**
 * Whether the link `file` naming `target` leads out of `folder`: its target resolved from the link's own
 * folder, and any link on the way (a dangling one too), as the OS would.
 */
async function leadsOutside(file: string, target: string, folder: string): Promise<boolean> {
  try {
    return !(await isInside(path.resolve(path.dirname(file), target), [folder]));
  } catch {
    return true; // cannot be told: said as the worst case
  }
}

function innermostRepo(repos: readonly ShadowRepo[], file: string): ShadowRepo | undefined {
  return repos
    .filter((repo) => file !== repo.folder && isLexicallyWithin(file, repo.folder))
    .sort((a, b) => b.folder.length - a.folder.length)[0];
}

/** A folder inside another is snapshotted by both; its files are reported once, under the inner folder. */
function withoutNestedDuplicates(stats: FileChangeStat[], folders: readonly string[]): FileChangeStat[] {
  return stats.filter((stat) => {
    const innermost = folders
      .filter((folder) => stat.path !== folder && isLexicallyWithin(stat.path, folder))
      .sort((a, b) => b.length - a.length)[0];
    return innermost === undefined || innermost === stat.folder;
  });
}
