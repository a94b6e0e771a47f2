import type { GitResult, GitRunOptions } from './gitRunner';

type RunGit = (args: readonly string[], options?: GitRunOptions) => Promise<GitResult>;

/**
 * Makes each checkpoint's commit and its ref. The commit time (whole seconds, git's resolution) is always
 * after the newest checkpoint's: pruning keeps the newest by commit time, and two checkpoints in one
 * second would tie — the newer could then be dropped and an older one kept.
 */
export class CheckpointCommits {
  private lastSeconds: number | undefined;

  constructor(
    private readonly runGit: RunGit,
    private readonly refs: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Commits `tree` with `message` under a ref of its own; returns the commit's hash. */
  async create(message: string, tree: string): Promise<string> {
    const commitSeconds = await this.nextSeconds();
    const args = ['commit-tree', '--no-gpg-sign', '-m', message, tree];
    const commit = (await this.runGit(args, { commitSeconds })).stdout.toString('utf8').trim();
    await this.runGit(['update-ref', `${this.refs}${commit}`, commit]);
    return commit;
  }

  private async nextSeconds(): Promise<number> {
    // Read once per store: the newest checkpoint may come from an earlier window on this folder.
    if (this.lastSeconds === undefined) {
      const newest = ['for-each-ref', '--sort=-committerdate', '--count=1', '--format=%(committerdate:unix)'];
      const { stdout } = await this.runGit([...newest, this.refs]);
      this.lastSeconds = Number(stdout.toString('utf8').trim()) || 0;
    }
    this.lastSeconds = Math.max(Math.floor(this.now() / 1000), this.lastSeconds + 1);
    return this.lastSeconds;
  }
}
