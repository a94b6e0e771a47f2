import { copyFile, mkdir, mkdtemp, rm, stat, utimes } from 'node:fs/promises';
import * as path from 'node:path';
import type { GitPlace, RepoGit, RepoRunOptions } from './repoGit';

/**
 * A scratch object folder and index files of ours (in the extension's storage) for snapshots of work
 * trees: the objects a snapshot writes (blobs, trees, the merge's commits) go here, the repository's are
 * read beside them (GIT_ALTERNATE_OBJECT_DIRECTORIES), and the indexes are copies — so reading a work
 * tree, comparing and merging write nothing into the repository, its index or its refs. Removed whole.
 */
export class Scratch {
  private indexes = 0;

  private constructor(
    private readonly folder: string,
    private readonly repositoryObjects: string,
  ) {}

  /** A new scratch folder under `storageDir` for the repository whose shared git folder is `commonDir`. */
  static async open(storageDir: string, commonDir: string): Promise<Scratch> {
    await mkdir(storageDir, { recursive: true });
    const folder = await mkdtemp(path.join(storageDir, 'scratch-'));
    await mkdir(path.join(folder, 'objects'), { recursive: true });
    return new Scratch(folder, path.join(commonDir, 'objects'));
  }

  /** Run options that write objects here (and, with `indexFile`, use that index). */
  options(indexFile?: string): RepoRunOptions {
    return {
      scratchObjects: { dir: path.join(this.folder, 'objects'), repositoryObjects: this.repositoryObjects },
      ownIdentity: true,
      ...(indexFile === undefined ? {} : { indexFile }),
    };
  }

  /**
   * The tree of `place`'s work tree as it is on disk now: tracked and untracked files, the ignored ones
   * left out (as `git add -A` takes them). The work tree's own index is copied first, so only files
   * whose stat changed are read again; the copy, not the index, is written.
   */
  async snapshot(git: RepoGit, place: GitPlace): Promise<string> {
    const index = path.join(this.folder, `index-${++this.indexes}`);
    await copyIndex(path.join(place.gitDir, 'index'), index);
    await git.run(place, ['add', '-A', '--', '.'], this.options(index));
    return git.text(place, ['write-tree'], this.options(index));
  }

  /** A commit of `tree` on `parent` (ours, in the scratch objects): what a merge of trees needs. */
  commit(git: RepoGit, place: GitPlace, tree: string, parent: string): Promise<string> {
    return git.text(place, ['commit-tree', tree, '-p', parent, '-m', 'snapshot'], this.options());
  }

  /** Removes the folder and everything in it. */
  async dispose(): Promise<void> {
    await rm(this.folder, { recursive: true, force: true });
  }
}

/**
 * Copies a work tree's index with its modification time. git trusts an entry's stat data only when the
 * file is older than the index ("racily clean" entries are read again): a copy made later would make a
 * file changed in the same second as the checkout, with its size kept, look unchanged. The time is read
 * before copying, so a copy of an index rewritten meanwhile only looks older (more files read again).
 */
async function copyIndex(source: string, target: string): Promise<void> {
  try {
    const { atime, mtime } = await stat(source);
    await copyFile(source, target);
    await utimes(target, atime, mtime);
  } catch {
    // No index yet (or none readable): git builds the snapshot from the files alone.
    await rm(target, { force: true });
  }
}

/** Runs `work` with a scratch folder, removed afterwards however `work` ends. */
export async function withScratch<T>(
  storageDir: string,
  commonDir: string,
  work: (scratch: Scratch) => Promise<T>,
): Promise<T> {
  const scratch = await Scratch.open(storageDir, commonDir);
  try {
    return await work(scratch);
  } finally {
    await scratch.dispose();
  }
}
