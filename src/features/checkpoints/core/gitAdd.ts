import { rm } from 'node:fs/promises';
import { GitCommandError, type GitResult, type GitRunOptions } from './gitRunner';

/** Runs git in the shadow repository, with the folder as work tree. */
type RunGit = (args: readonly string[], options?: GitRunOptions) => Promise<GitResult>;

/** Named files that vanish between the listing and `git add` are dropped this many times, then it fails. */
const VANISHED_RETRIES = 8;

/**
 * `git add -A` (or `--renormalize`: read again even where the stat looks clean) of the pathspecs into
 * the shadow index; resolves whether some file could not be read (left out with a warning rather than
 * failing the checkpoint). A named file gone since the listing — neither on disk nor in the index, so
 * there is nothing to stage — makes git refuse the whole command: it is dropped and the rest staged. A git
 * killed by the timeout leaves the index lock behind: it is removed here, since only the store's queue
 * ever runs git on this repository.
 */
export async function addToIndex(
  runGit: RunGit,
  indexFile: string,
  pathspecs: readonly string[],
  renormalize: boolean,
): Promise<{ readonly unreadable: boolean }> {
  let specs = [...pathspecs];
  for (let retry = 0; ; retry++) {
    try {
      return await addOnce(runGit, specs, renormalize);
    } catch (error) {
      if (error instanceof GitCommandError && error.exitCode === null) {
        await rm(`${indexFile}.lock`, { force: true });
      }
      const vanished = retry < VANISHED_RETRIES ? vanishedPathspec(error, specs) : undefined;
      if (vanished === undefined) {
        throw error;
      }
      specs = specs.filter((spec) => spec !== vanished);
      if (specs.length === 0) {
        return { unreadable: false };
      }
    }
  }
}

async function addOnce(
  runGit: RunGit,
  pathspecs: readonly string[],
  renormalize: boolean,
): Promise<{ readonly unreadable: boolean }> {
  const { exitCode, stderr } = await runGit(
    [
      '-c',
      'advice.addIgnoredFile=false',
      'add',
      renormalize ? '--renormalize' : '-A',
      '--ignore-errors',
      '--pathspec-from-file=-',
      '--pathspec-file-nul',
    ],
    { input: `${pathspecs.join('\0')}\0`, okExitCodes: [1] },
  );
  // A folder left out for its rule files is also ignored by name: git says so, and that is all.
  return { unreadable: exitCode === 1 && /^(error|warning|fatal):/m.test(stderr) };
}

/** The pathspec of `specs` that git refused as matching nothing, if that is why it failed. */
function vanishedPathspec(error: unknown, specs: readonly string[]): string | undefined {
  if (!(error instanceof GitCommandError) || error.exitCode !== 128) {
    return undefined;
  }
  return specs.find((spec) => error.stderr.includes(`pathspec '${spec}' did not match any files`));
}
