import { rm } from 'node:fs/promises';
import {
  killedBySignal,
  noProgramSettings,
  runGitProcess,
  safeGitEnvironment,
  settingArgs,
  type GitResult,
} from '../../../core/git/safeGit';

export { GitCommandError, killedBySignal, splitNul, type GitResult } from '../../../core/git/safeGit';

/** Where one shadow repository lives and what it snapshots. */
export interface ShadowLocation {
  /** The git executable. */
  readonly git: string;
  /** The shadow repository (GIT_DIR), in the extension's storage. */
  readonly gitDir: string;
  /** The workspace folder, used as the work tree. */
  readonly workTree: string;
  /** This store object's own index file (see ./ownIndex): never shared with another window. */
  indexFile: string;
  /** How long one git command may run (default 120 s); tests give a short one. */
  readonly timeoutMs?: number;
  /** An empty directory given as `core.hooksPath`, so no hook can ever run. */
  readonly hooksDir: string;
  /** A directory with no git configuration, given as HOME: the user's global config is never read. */
  readonly homeDir: string;
}

export interface GitRunOptions {
  /** Written to the command's stdin, then closed. */
  readonly input?: string | Buffer;
  /** Exit codes that are answers, not failures (e.g. 1 from `cat-file -e`). */
  readonly okExitCodes?: readonly number[];
  /**
   * Run without the work tree (as in a bare repository): git then reads no `.gitattributes` or
   * `.gitignore` of the folder — for commands that only read the repository (`diff-tree`).
   */
  readonly bare?: boolean;
  /**
   * Background work (packing): run at the lowest priority, in its own process group (so the commands
   * git starts go with it when it is stopped), never run again when killed.
   */
  readonly background?: boolean;
  /** Stops the command (and, for background work, what it started): it then fails. */
  readonly signal?: AbortSignal;
  /** How long this command may run, instead of the location's. */
  readonly timeoutMs?: number;
  /** The author and commit time of a commit it makes, in unix seconds (UTC). */
  readonly commitSeconds?: number;
}

/** Fixed, so checkpoints never carry the user's identity and never ask for one. */
const AUTHOR = { name: 'ACP Agents checkpoint', email: 'checkpoints@acp-agents.invalid' };
/** A stuck git (a network file system, a lock) must not hold a turn forever. */
const TIMEOUT_MS = 120_000;

/**
 * Settings given on every command line, so they hold whatever any config file says: no program of the
 * repository's runs (`noProgramSettings`); autocrlf and filters would change bytes (attributes are
 * neutralised in the shadow's info/attributes); the caches keep a no-change checkpoint fast.
 */
function configArgs(location: ShadowLocation): string[] {
  return settingArgs({
    ...noProgramSettings(location.hooksDir),
    'core.autocrlf': 'false',
    'core.safecrlf': 'false',
    'core.quotepath': 'off',
    'core.untrackedCache': 'true',
    'core.longpaths': 'true',
    'core.preloadIndex': 'true',
    'feature.manyFiles': 'true',
    'index.threads': 'true',
    'advice.addEmbeddedRepo': 'false',
    'gc.autoDetach': 'false',
    'maintenance.auto': 'false',
    // No reflogs: a pruned checkpoint's objects must become collectable.
    'core.logAllRefUpdates': 'false',
  });
}

/**
 * The environment of every command: nothing from an inherited GIT_* variable (a hook environment
 * would point us at the user's repository or index), explicit GIT_DIR / GIT_WORK_TREE / GIT_INDEX_FILE,
 * no system or global configuration, no optional locks, no prompts.
 */
function gitEnvironment(location: ShadowLocation, bare: boolean, commitSeconds?: number): NodeJS.ProcessEnv {
  return {
    ...safeGitEnvironment(),
    GIT_DIR: location.gitDir,
    ...(bare ? {} : { GIT_WORK_TREE: location.workTree }),
    GIT_INDEX_FILE: location.indexFile,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: `${location.homeDir}/gitconfig`,
    HOME: location.homeDir,
    XDG_CONFIG_HOME: location.homeDir,
    GIT_OPTIONAL_LOCKS: '0',
    GIT_AUTHOR_NAME: AUTHOR.name,
    GIT_AUTHOR_EMAIL: AUTHOR.email,
    GIT_COMMITTER_NAME: AUTHOR.name,
    GIT_COMMITTER_EMAIL: AUTHOR.email,
    ...(commitSeconds === undefined
      ? {}
      : { GIT_AUTHOR_DATE: `${commitSeconds} +0000`, GIT_COMMITTER_DATE: `${commitSeconds} +0000` }),
  };
}

/**
 * Runs one git command against a shadow repository, without a shell, and returns its stdout as bytes.
 * A git killed by a signal (SIGBUS when a file it maps is truncated under it; a SIGKILL from outside)
 * is run once more — after removing the index lock it could not clean up — since every command we run
 * can be repeated. A git that outlives the timeout is not: it would most likely hang again.
 */
export async function runGit(
  location: ShadowLocation,
  args: readonly string[],
  options: GitRunOptions = {},
): Promise<GitResult> {
  try {
    return await runGitOnce(location, args, options);
  } catch (error) {
    if (!killedBySignal(error) || options.background === true || options.signal?.aborted === true) {
      throw error;
    }
    await rm(`${location.indexFile}.lock`, { force: true });
    return runGitOnce(location, args, options);
  }
}

function runGitOnce(
  location: ShadowLocation,
  args: readonly string[],
  options: GitRunOptions,
): Promise<GitResult> {
  const bare = options.bare === true;
  const fullArgs = [
    '--no-optional-locks',
    ...configArgs(location),
    ...(bare ? ['-c', 'core.bare=true'] : []),
    ...args,
  ];
  return runGitProcess(location.git, fullArgs, args, {
    // Bare: not even the working folder is the workspace.
    cwd: bare ? location.gitDir : location.workTree,
    env: gitEnvironment(location, bare, options.commitSeconds),
    timeoutMs: options.timeoutMs ?? location.timeoutMs ?? TIMEOUT_MS,
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.okExitCodes === undefined ? {} : { okExitCodes: options.okExitCodes }),
    ...(options.background === undefined ? {} : { background: options.background }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
}
