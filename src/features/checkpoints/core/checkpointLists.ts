import { IGNORED_TRAILER, IgnoredFiles } from './ignoredFiles';
import { LinkList } from './linkTargets';
import { keepingObjectReads } from './objectReads';
import { TrailerList } from './trailerList';
import type { DiffEnds } from './treeDiff';

/** Runs git in the shadow repository; resolves with its stdout. */
type Git = (args: readonly string[], input?: string) => Promise<string>;

/** Names, in a checkpoint's commit message, the blob listing the files left out of it. */
const SKIPPED_TRAILER = 'acp-skipped:';
/** Names the blob listing the files that were being written while the checkpoint read them. */
const UNSURE_TRAILER = 'acp-unsure:';
/**
 * Names the blob listing the files that were there but not recorded (git could not read them). Always
 * written: with it the checkpoint accounts for every file, so one in none of its lists was absent.
 */
const UNRECORDED_TRAILER = 'acp-unrecorded:';

/** The links at both ends of a diff. */
export interface LinkEnds {
  readonly linksBefore: ReadonlyMap<string, string> | 'unknown';
  readonly linksAfter: ReadonlyMap<string, string> | 'unknown';
}

/** What a snapshot found beside its tree: the files it has no (whole) bytes of, by why. */
export interface SnapshotLists {
  /** Left out (too large, links, nested repositories, unreadable rule files); see ./skipList. */
  readonly skipped: readonly string[];
  /** Being written while it read them. */
  readonly unsure: readonly string[];
  /** There, but git could not read them. */
  readonly unrecorded: readonly string[];
  /** The symbolic links, with their targets. */
  readonly links: ReadonlyMap<string, string>;
}

/**
 * The lists a checkpoint keeps beside its tree, as trailers of its commit message naming blobs: the files
 * left out, ignored, being written, and there but unrecorded. Together with the tree they account for
 * every file of the folder at the checkpoint, which is what lets a diff call a file created.
 */
export class CheckpointLists {
  readonly ignored: IgnoredFiles;
  private readonly skipped: TrailerList;
  private readonly unsure: TrailerList;
  private readonly unrecorded: TrailerList;
  private readonly links: LinkList;

  constructor(git: Git) {
    // Each list reads the commit message of the checkpoint it is asked about: read once, not once a list.
    const reads = keepingObjectReads(git);
    this.ignored = new IgnoredFiles(reads);
    this.skipped = new TrailerList(SKIPPED_TRAILER, reads);
    this.unsure = new TrailerList(UNSURE_TRAILER, reads);
    this.unrecorded = new TrailerList(UNRECORDED_TRAILER, reads, true);
    this.links = new LinkList(reads);
  }

  /** The trailer lines of a checkpoint of a snapshot with `lists` (and the ignored files now). */
  async trailers(lists: SnapshotLists): Promise<string> {
    const ignoredBlob = await this.ignored.blob();
    return [
      await this.skipped.line(lists.skipped),
      ignoredBlob === '' ? '' : `${IGNORED_TRAILER} ${ignoredBlob}`,
      await this.unsure.line(lists.unsure),
      await this.unrecorded.line(lists.unrecorded),
      await this.links.line(lists.links),
    ]
      .filter((line) => line !== '')
      .join('\n');
  }

  /** What checkpoint `from` and checkpoint `to` (or `now`, for the folder as it is) recorded. */
  async ends(
    from: string,
    to: string | undefined,
    now: Pick<SnapshotLists, 'skipped' | 'links'>,
  ): Promise<DiffEnds & LinkEnds> {
    return {
      skippedBefore: await this.skipped.at(from),
      ignoredBefore: await this.ignored.at(from),
      unsureBefore: await this.unsure.at(from),
      unrecordedBefore: await this.unrecorded.at(from),
      skippedAfter: to === undefined ? new Set(now.skipped) : await this.skipped.at(to),
      linksBefore: await this.links.at(from),
      linksAfter: to === undefined ? now.links : await this.links.at(to),
    };
  }

  /** Whether checkpoint `commit`'s bytes of `rel` may be torn (or it cannot say): never handed out. */
  async mayBeTorn(commit: string, rel: string): Promise<boolean> {
    const unsure = await this.unsure.at(commit);
    return unsure === 'unknown' || unsure.has(rel);
  }
}
