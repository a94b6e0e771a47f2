import { splitNul } from './gitRunner';

/** Names, in a checkpoint's commit message, the blob listing the ignored files there were then. */
export const IGNORED_TRAILER = 'acp-ignored:';

/** Runs git in the shadow repository; resolves with its stdout. */
type Git = (args: readonly string[], input?: string) => Promise<string>;

/**
 * The files `.gitignore` hid at each checkpoint. They are not snapshotted, so when an agent un-ignores
 * them (edits `.gitignore`) they would look created by the turn and Undo would delete files that were
 * there before. Their paths (an ignored folder as one `dir/` entry) are stored as a blob with the
 * checkpoint, so such a file is known as "may have existed".
 */
export class IgnoredFiles {
  /** The newest list as a blob, and the list it was made from: an unchanged list needs no write. */
  private newest: { list: string; blob: string } | undefined;
  /** The folders (ending in `/`) ignored at the newest look. */
  private latestFolders = new Set<string>();
  /** The blob of the newest list while no folder's entries changed since (see ./changedFiles). */
  private current: string | undefined;

  constructor(private readonly git: Git) {}

  /** The folder's entries may have changed: the next `blob()` lists the ignored files again. */
  markStale(): void {
    this.current = undefined;
  }

  /** The ignored files there are now, as a blob of the shadow repository; '' when there are none. */
  async blob(): Promise<string> {
    this.current ??= await this.listNow();
    return this.current;
  }

  private async listNow(): Promise<string> {
    const list = await this.git(['ls-files', '-z', '-o', '-i', '--exclude-standard', '--directory']);
    this.latestFolders = new Set(splitNul(list).filter((rel) => rel.endsWith('/')));
    if (list === '') {
      return '';
    }
    if (this.newest?.list !== list) {
      this.newest = { list, blob: (await this.git(['hash-object', '-w', '--stdin'], list)).trim() };
    }
    return this.newest.blob;
  }

  /** The folders git ignored at the newest checkpoint: git does not enter them. */
  folders(): ReadonlySet<string> {
    return this.latestFolders;
  }

  /**
   * The ignored files at checkpoint `commit` (an older checkpoint without the list: none);
   * `unknown` when the list was recorded but cannot be read — then nothing can count as created.
   */
  async at(commit: string): Promise<ReadonlySet<string> | 'unknown'> {
    const message = await this.git(['cat-file', 'commit', commit]);
    const blob = new RegExp(`^${IGNORED_TRAILER} ([0-9a-f]+)$`, 'm').exec(message)?.[1];
    if (blob === undefined) {
      return new Set();
    }
    try {
      return new Set(splitNul(await this.git(['cat-file', 'blob', blob])));
    } catch {
      return 'unknown';
    }
  }
}
