import * as z from 'zod';

/** Runs git in the shadow repository; resolves with its stdout. */
type Git = (args: readonly string[], input?: string) => Promise<string>;

/**
 * A list of paths kept with a checkpoint: a JSON blob of the shadow repository, named in the commit
 * message by a trailer (`<trailer> <blob>`). The blob of an unchanged list is not written again.
 */
export class TrailerList {
  private newest: { list: string; blob: string } | undefined;

  constructor(
    /** E.g. `acp-skipped:`. */
    readonly trailer: string,
    private readonly git: Git,
    /**
     * Written also when empty, so that a commit without it says nothing: `at` answers `unknown` for it
     * (a checkpoint made before the list existed).
     */
    private readonly always = false,
  ) {}

  /** The trailer line for `paths`; '' when there are none (unless `always`). */
  async line(paths: readonly string[]): Promise<string> {
    if (paths.length === 0 && !this.always) {
      return '';
    }
    const list = JSON.stringify([...paths].sort());
    if (this.newest?.list !== list) {
      this.newest = { list, blob: (await this.git(['hash-object', '-w', '--stdin'], list)).trim() };
    }
    return `${this.trailer} ${this.newest.blob}`;
  }

  /**
   * The paths kept with checkpoint `commit` (none when it has no such trailer, or `unknown` if `always`);
   * `unknown` when the list or the commit cannot be read (collected, damaged, not a checkpoint of this
   * repository).
   */
  async at(commit: string): Promise<ReadonlySet<string> | 'unknown'> {
    try {
      const message = await this.git(['cat-file', 'commit', commit]);
      const blob = new RegExp(`^${this.trailer} ([0-9a-f]+)$`, 'm').exec(message)?.[1];
      if (blob === undefined) {
        return this.always ? 'unknown' : new Set();
      }
      const parsed = z.array(z.string()).safeParse(JSON.parse(await this.git(['cat-file', 'blob', blob])));
      return parsed.success ? new Set(parsed.data) : 'unknown';
    } catch {
      return 'unknown';
    }
  }
}
