import * as path from 'node:path';
import { splitNul } from '../../../core/git/safeGit';
import { readBlobs } from './blobs';
import type { GitPlace, RepoGit } from './repoGit';
import type { Scratch } from './scratch';
import { withScratch } from './scratch';
import { originPlace, worktreePlace } from './worktreeChanges';
import type { WorktreeRecord } from './worktreeRecords';

/** Three versions of a file both sides changed, for the merge editor. */
export interface ConflictSides {
  readonly base: Buffer | undefined;
  readonly ours: Buffer | undefined;
  readonly theirs: Buffer | undefined;
}

/** One file Apply writes into the folder the worktree came from. */
export interface AppliedFile {
  /** `/`-separated, relative to that folder. */
  readonly rel: string;
  readonly path: string;
  /** The bytes to write; undefined: the file is deleted. */
  readonly content: Buffer | undefined;
  /** The folder's bytes when the plan was made (undefined: no such file): a file changed since is left. */
  readonly before: Buffer | undefined;
  readonly executable: boolean;
  /** Both sides changed it and the merge could not join them: `content` holds conflict markers. */
  readonly conflict?: ConflictSides;
}

export interface ApplyPlan {
  readonly files: readonly AppliedFile[];
  /** What is not brought back, and why (links, nested repositories, binary files changed on both sides). */
  readonly skipped: readonly { readonly rel: string; readonly reason: string }[];
  /** The worktree's tree the plan brings back (recorded as applied once it is). */
  readonly worktreeTree: string;
}

/** A change bigger than this many files is refused (its diff alone would not be reviewable). */
export const MAX_APPLIED_FILES = 20_000;

const LINK_MODE = '120000';
const GITLINK_MODE = '160000';

/**
 * What Apply would write: a three-way merge of the folder as it is on disk (the user's uncommitted work
 * included) and the worktree as it is on disk, against the commit the worktree was made from — so the
 * user's changes are kept, the agent's added, and where both changed the same lines the file gets
 * conflict markers and its three versions. Snapshots, commits and the merged tree are written in a
 * scratch folder: the repository, its index and its refs are not touched. Undefined: nothing to bring.
 */
export async function planApply(
  git: RepoGit,
  record: WorktreeRecord,
  scratchDir: string,
): Promise<ApplyPlan | undefined> {
  return withScratch(scratchDir, record.commonDir, async (scratch) => {
    const origin = originPlace(record);
    const worktreeTree = await scratch.snapshot(git, worktreePlace(record));
    const baseTree = await git.text(origin, ['rev-parse', `${record.baseCommit}^{tree}`], scratch.options());
    if (worktreeTree === baseTree || worktreeTree === record.appliedTree) {
      return undefined;
    }
    const originTree = await scratch.snapshot(git, origin);
    const merged = await mergeTrees(git, origin, scratch, record.baseCommit, originTree, worktreeTree);
    const changes = await changedEntries(git, origin, scratch, originTree, merged.tree);
    if (changes.length > MAX_APPLIED_FILES) {
      throw new Error(
        `The worktree changes ${changes.length} files; Apply brings at most ${MAX_APPLIED_FILES}.`,
      );
    }
    return { ...(await filesOf(git, origin, scratch, record.repositoryRoot, changes, merged)), worktreeTree };
  });
}

interface MergeResult {
  readonly tree: string;
  /** Per conflicted path, the blob of each stage (1 base, 2 ours, 3 theirs) and its mode. */
  readonly conflicts: ReadonlyMap<string, { readonly stages: Map<number, string>; readonly mode: string }>;
}

/** Merges two trees made from `base` with `git merge-tree --write-tree` (renames followed, no driver). */
async function mergeTrees(
  git: RepoGit,
  place: GitPlace,
  scratch: Scratch,
  base: string,
  ours: string,
  theirs: string,
): Promise<MergeResult> {
  const oursCommit = await scratch.commit(git, place, ours, base);
  const theirsCommit = await scratch.commit(git, place, theirs, base);
  const output = await git.run(place, ['merge-tree', '--write-tree', '-z', oursCommit, theirsCommit], {
    ...scratch.options(),
    okExitCodes: [1],
  });
  const fields = splitNul(output.stdout);
  const conflicts = new Map<string, { stages: Map<number, string>; mode: string }>();
  for (const field of fields.slice(1)) {
    const entry = /^(\d{6}) ([0-9a-f]+) ([123])\t([\s\S]+)$/.exec(field);
    if (!entry) {
      break; // the empty field before the merge's messages
    }
    const [, mode, blob, stage, rel] = entry as unknown as [string, string, string, string, string];
    const conflict = conflicts.get(rel) ?? { stages: new Map<number, string>(), mode };
    conflict.stages.set(Number(stage), blob);
    conflicts.set(rel, conflict);
  }
  return { tree: fields[0] ?? '', conflicts };
}

interface Entry {
  readonly rel: string;
  readonly oldMode: string;
  readonly newMode: string;
  readonly oldBlob: string;
  readonly newBlob: string;
}

/** The entries that differ between the folder's tree and the merged one (`diff-tree --raw`). */
async function changedEntries(
  git: RepoGit,
  place: GitPlace,
  scratch: Scratch,
  from: string,
  to: string,
): Promise<Entry[]> {
  const output = await git.run(
    place,
    ['diff-tree', '-r', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', '--raw', from, to],
    scratch.options(),
  );
  const fields = splitNul(output.stdout);
  const entries: Entry[] = [];
  for (let i = 0; i < fields.length; i++) {
    const raw = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) [A-Z]\d*$/.exec(fields[i]!);
    const rel = fields[i + 1];
    if (raw && rel !== undefined) {
      const [, oldMode, newMode, oldBlob, newBlob] = raw as unknown as [
        string,
        string,
        string,
        string,
        string,
      ];
      entries.push({ rel, oldMode, newMode, oldBlob, newBlob });
      i++;
    }
  }
  return entries;
}

/** Reads the bytes of every entry (one `cat-file --batch`) into the files to write. */
async function filesOf(
  git: RepoGit,
  place: GitPlace,
  scratch: Scratch,
  root: string,
  entries: readonly Entry[],
  merged: MergeResult,
): Promise<Pick<ApplyPlan, 'files' | 'skipped'>> {
  const skipped: { rel: string; reason: string }[] = [];
  const kept = entries.filter((entry) => {
    const modes = [entry.oldMode, entry.newMode];
    const reason = modes.includes(LINK_MODE)
      ? 'it is a symbolic link (links are not brought back)'
      : modes.includes(GITLINK_MODE)
        ? 'it is a nested repository'
        : undefined;
    if (reason) {
      skipped.push({ rel: entry.rel, reason });
    }
    return reason === undefined;
  });
  const blobIds = kept.flatMap((entry) => [entry.oldBlob, entry.newBlob]);
  for (const conflict of merged.conflicts.values()) {
    blobIds.push(...conflict.stages.values());
  }
  const blobs = await readBlobs(
    git,
    place,
    blobIds.filter((id) => !/^0+$/.test(id)),
    scratch.options(),
  );
  const bytes = (id: string | undefined): Buffer | undefined =>
    id === undefined || /^0+$/.test(id) ? undefined : blobs.get(id);
  for (const rel of merged.conflicts.keys()) {
    if (!entries.some((entry) => entry.rel === rel)) {
      skipped.push({
        rel,
        reason: 'both sides changed it and it cannot be merged as text; the folder keeps its version',
      });
    }
  }
  const files = kept.map((entry): AppliedFile => {
    const conflict = merged.conflicts.get(entry.rel);
    return {
      rel: entry.rel,
      path: path.join(root, ...entry.rel.split('/')),
      content: bytes(entry.newBlob),
      before: bytes(entry.oldBlob),
      executable: entry.newMode === '100755',
      ...(conflict
        ? {
            conflict: {
              base: bytes(conflict.stages.get(1)),
              ours: bytes(conflict.stages.get(2)),
              theirs: bytes(conflict.stages.get(3)),
            },
          }
        : {}),
    };
  });
  return { files, skipped };
}
