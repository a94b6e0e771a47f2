import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { findOnAbsolutePath } from '../../../core/connection/spawnProgram';
import { LimitedCheckpointStore } from './limited';
import { ShadowGitCheckpointStore, type ShadowGitStoreOptions } from './shadowGit';
import type { CheckpointStore } from './types';

export { CheckpointNotFoundError } from './errors';
export { LimitedCheckpointStore } from './limited';
export { ShadowGitCheckpointStore } from './shadowGit';
export type * from './types';

/** What the store needs: the shadow-git store's options (the limited store uses a subset). */
export type CheckpointStoreOptions = ShadowGitStoreOptions;

/** Features used: `add --pathspec-from-file` (2.26). */
const MIN_GIT: readonly [number, number] = [2, 26];
const PROBE_TIMEOUT_MS = 5000;

/**
 * The checkpoint store for the workspace: shadow git repositories when a usable git is there, else the
 * limited store, whose `limitation` says why (for a one-time notice). Never throws for a missing,
 * old or failing git.
 */
export async function createCheckpointStore(options: CheckpointStoreOptions): Promise<CheckpointStore> {
  // Found as an absolute path on PATH: started with the workspace as working folder, a bare `git`
  // could be a git.exe committed to the repository (Windows looks in the working folder first).
  const git = options.git ?? (await findOnAbsolutePath('git', process.env));
  const limited = async (limitation: string): Promise<CheckpointStore> => {
    options.logger.warn(`Checkpoints are limited: ${limitation}`);
    const open = (storageDir: string) =>
      LimitedCheckpointStore.open({
        folders: options.folders,
        storageDir,
        limitation,
        logger: options.logger,
        maxFileBytes: options.maxFileBytes,
        keepCheckpoints: options.keepCheckpoints,
      });
    try {
      return await open(options.storageDir);
    } catch (error) {
      // Still record this window's checkpoints somewhere rather than fail the chat.
      options.logger.warn(
        `Checkpoints cannot be stored in ${options.storageDir} (${String(error)}); using a temporary directory.`,
      );
      return open(await mkdtemp(path.join(os.tmpdir(), 'acp-checkpoints-')));
    }
  };
  if (git === undefined) {
    return limited(`git was not found on PATH; ${ONLY_NOTED}`);
  }
  const version = await probeGitVersion(git);
  if (typeof version === 'string') {
    return limited(version);
  }
  if (version[0] < MIN_GIT[0] || (version[0] === MIN_GIT[0] && version[1] < MIN_GIT[1])) {
    return limited(`git ${version.join('.')} is older than ${MIN_GIT.join('.')}; ${ONLY_NOTED}`);
  }
  // Two windows opening one folder at once both set up its shadow repository; the one that loses that race
  // finds it half made (a locked config, an index being written) and succeeds once the other is done.
  let lastError: unknown;
  for (let attempt = 1; attempt <= OPEN_ATTEMPTS; attempt++) {
    try {
      return await ShadowGitCheckpointStore.open({ ...options, git });
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
  return limited(`the checkpoint repositories could not be set up (${String(lastError)}); ${ONLY_NOTED}`);
}

/** How often opening the shadow repository is tried before the limited store is used. */
const OPEN_ATTEMPTS = 3;

const ONLY_NOTED =
  'only files written through the editor or named in tool calls can be listed and undone, not files an agent changes by itself.';

/** `[major, minor]` of `git --version`, or why it could not be run. */
function probeGitVersion(git: string): Promise<readonly [number, number] | string> {
  return new Promise((resolve) => {
    execFile(git, ['--version'], { timeout: PROBE_TIMEOUT_MS, windowsHide: true }, (error, stdout) => {
      const match = /git version (\d+)\.(\d+)/.exec(String(stdout));
      if (error || !match) {
        const why =
          (error as NodeJS.ErrnoException | null)?.code === 'ENOENT' ? 'was not found' : 'did not run';
        resolve(`git ${why} (${git}); ${ONLY_NOTED}`);
      } else {
        resolve([Number(match[1]), Number(match[2])]);
      }
    });
  });
}
