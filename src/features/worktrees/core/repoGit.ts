import { mkdir } from 'node:fs/promises';
import {
  neutralDriverSettings,
  noProgramSettings,
  runGitProcess,
  safeGitEnvironment,
  settingArgs,
  settingsEnvironment,
  splitNul,
  type GitResult,
} from '../../../core/git/safeGit';

/** Where a command runs: a repository (its git folder) and its work tree. */
export interface GitPlace {
  /** GIT_DIR: the repository's own, or a linked worktree's folder in it (`.git/worktrees/<name>`). */
  readonly gitDir: string;
  /** The work tree, also the folder git starts in. */
  readonly workTree: string;
}

export interface RepoRunOptions {
  readonly input?: string | Buffer;
  readonly okExitCodes?: readonly number[];
  /** An index of ours instead of the work tree's own (snapshots never touch the user's index). */
  readonly indexFile?: string;
  /** New objects go here, the repository's are read beside them: nothing is written into the repository. */
  readonly scratchObjects?: { readonly dir: string; readonly repositoryObjects: string };
  /** A fixed identity for commits that are ours (snapshots), instead of the user's. */
  readonly ownIdentity?: boolean;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Stdout beyond this fails the command. */
  readonly maxStdoutBytes?: number;
}

/** How long one command may run: a worktree of a very large repository takes a while to check out. */
const TIMEOUT_MS = 300_000;
const SNAPSHOT_AUTHOR = { name: 'ACP Agents', email: 'worktrees@acp-agents.invalid' };

/**
 * Git in the user's repository, run safely (`src/core/git/safeGit.ts`): the repository's configuration is
 * read (the user's identity, line endings, `safe.directory`), but no hook, monitor, transport or driver
 * of it runs — the filter, diff and merge drivers it names are listed before each command and given
 * empty commands. The repository is always named (GIT_DIR, GIT_WORK_TREE), never found from the folder:
 * an agent can rewrite a worktree's `.git` file to point anywhere. No optional locks, so a status never
 * writes the user's index.
 */
export class RepoGit {
  constructor(
    readonly git: string,
    /** An empty folder of ours: `core.hooksPath`. */
    private readonly hooksDir: string,
    private readonly timeoutMs = TIMEOUT_MS,
  ) {}

  /** Runs `git <args>` at `place` and returns its stdout. */
  async run(place: GitPlace, args: readonly string[], options: RepoRunOptions = {}): Promise<GitResult> {
    await mkdir(this.hooksDir, { recursive: true });
    const drivers = await this.definedDrivers(place);
    return runGitProcess(this.git, [...this.settings(), ...args], args, {
      cwd: place.workTree,
      env: { ...this.environment(place, options), ...settingsEnvironment(neutralDriverSettings(drivers)) },
      timeoutMs: options.timeoutMs ?? this.timeoutMs,
      ...(options.input === undefined ? {} : { input: options.input }),
      ...(options.okExitCodes === undefined ? {} : { okExitCodes: options.okExitCodes }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.maxStdoutBytes === undefined ? {} : { maxStdoutBytes: options.maxStdoutBytes }),
    });
  }

  /** `run`, its stdout as text without the final newline. */
  async text(place: GitPlace, args: readonly string[], options: RepoRunOptions = {}): Promise<string> {
    return (await this.run(place, args, options)).stdout.toString('utf8').replace(/\n$/, '');
  }

  /**
   * `git <args>` in `folder` with the repository git finds there itself: only for a folder the user
   * opened (a workspace folder), never one an agent works in. Reads only (no drivers to run).
   */
  async discover(folder: string, args: readonly string[]): Promise<string> {
    await mkdir(this.hooksDir, { recursive: true });
    const result = await runGitProcess(this.git, [...this.settings(), ...args], args, {
      cwd: folder,
      env: { ...safeGitEnvironment(), GIT_OPTIONAL_LOCKS: '0' },
      timeoutMs: 30_000,
    });
    return result.stdout.toString('utf8');
  }

  /** The driver settings the repository's configuration names (all scopes, includes followed). */
  private async definedDrivers(place: GitPlace): Promise<string[]> {
    const listed = await runGitProcess(
      this.git,
      [...this.settings(), 'config', '--name-only', '-z', '--get-regexp', '^(filter|diff|merge)\\.'],
      ['config', '--get-regexp'],
      { cwd: place.workTree, env: this.environment(place, {}), timeoutMs: 30_000, okExitCodes: [1] },
    );
    return splitNul(listed.stdout).map((entry) => entry.split('\n')[0] ?? entry);
  }

  private settings(): string[] {
    return [
      '--no-optional-locks',
      ...settingArgs({
        ...noProgramSettings(this.hooksDir),
        // Our commands never start packing or maintenance of the user's repository.
        'gc.auto': '0',
        'maintenance.auto': 'false',
        'core.quotepath': 'off',
        'advice.detachedHead': 'false',
      }),
    ];
  }

  private environment(place: GitPlace, options: RepoRunOptions): NodeJS.ProcessEnv {
    return {
      ...safeGitEnvironment(),
      GIT_DIR: place.gitDir,
      GIT_WORK_TREE: place.workTree,
      GIT_OPTIONAL_LOCKS: '0',
      ...(options.indexFile === undefined ? {} : { GIT_INDEX_FILE: options.indexFile }),
      ...(options.scratchObjects === undefined
        ? {}
        : {
            GIT_OBJECT_DIRECTORY: options.scratchObjects.dir,
            GIT_ALTERNATE_OBJECT_DIRECTORIES: options.scratchObjects.repositoryObjects,
          }),
      ...(options.ownIdentity === true
        ? {
            GIT_AUTHOR_NAME: SNAPSHOT_AUTHOR.name,
            GIT_AUTHOR_EMAIL: SNAPSHOT_AUTHOR.email,
            GIT_COMMITTER_NAME: SNAPSHOT_AUTHOR.name,
            GIT_COMMITTER_EMAIL: SNAPSHOT_AUTHOR.email,
          }
        : {}),
    };
  }
}
