import { rm } from 'node:fs/promises';
import { GitCommandError, killedBySignal, type GitResult, type GitRunOptions } from './gitRunner';
import { excludePathspec, toLiteralPathspec } from './pathspecs';

/** Runs git in the shadow repository, with the folder as work tree. */
type RunGit = (args: readonly string[], options?: GitRunOptions) => Promise<GitResult>;

/** Files that vanish under `git add` are left out of it this many times, then it fails. */
const VANISHED_RETRIES = 8;
/**
 * A git killed by SIGBUS is run again this many times (each after `runGit`'s own try again); a file that
 * keeps killing it is then left to steady staging, which stages the folder without it.
 */
const TRUNCATED_RETRIES = 3;

/**
 * `git add -A` (or `--renormalize`: read again even where the stat looks clean) of the pathspecs into
 * the shadow index; resolves whether some file could not be read (left out with a warning rather than
 * failing the checkpoint). A named file gone since the listing — neither on disk nor in the index, so
 * there is nothing to stage — makes git refuse the whole command, and so does one git saw and then found
 * gone when it looked at it (a save deleting it and writing it anew): it is left out and the rest staged
 * (the caller's watch sees it moved, and stages it again by name). A file truncated while git maps it
 * kills git with SIGBUS: a save in a loop can do that to both tries `runGit` makes, so the add is made
 * again — that file may not even be among those listed (a save between deleting and writing it), and
 * steady staging, which leaves out a file seen moving, cannot tell which one it was. A git killed by a
 * signal or the timeout leaves the index lock behind: it is removed here, since only the store's queue
 * ever runs git on this repository.
 */
export async function addToIndex(
  runGit: RunGit,
  indexFile: string,
  pathspecs: readonly string[],
  renormalize: boolean,
): Promise<{ readonly unreadable: boolean }> {
  let specs = [...pathspecs];
  // Each cause has its own bound: a file truncated under git once does not use up a vanished file's tries.
  let truncated = 0;
  let vanished = 0;
  for (;;) {
    try {
      return await addOnce(runGit, specs, renormalize);
    } catch (error) {
      if (error instanceof GitCommandError && error.exitCode === null) {
        await rm(`${indexFile}.lock`, { force: true });
      }
      if (killedBySignal(error) && error.signal === 'SIGBUS' && truncated < TRUNCATED_RETRIES) {
        truncated++;
        continue;
      }
      const without = vanished < VANISHED_RETRIES ? withoutVanished(error, specs) : undefined;
      if (without === undefined) {
        throw error;
      }
      if (without.length === 0) {
        return { unreadable: false };
      }
      vanished++;
      specs = without;
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

/**
 * `specs` without the file git failed the command for because it was gone: a named file that matched
 * nothing, or one git saw and could then not stat (left out by name, or, matched by a wider pathspec,
 * excluded). `undefined` when that is not why it failed.
 */
function withoutVanished(error: unknown, specs: readonly string[]): string[] | undefined {
  if (!(error instanceof GitCommandError) || error.exitCode !== 128) {
    return undefined;
  }
  const unmatched = specs.find((spec) => error.stderr.includes(`pathspec '${spec}' did not match any files`));
  if (unmatched !== undefined) {
    return specs.filter((spec) => spec !== unmatched);
  }
  const gone = /^fatal: unable to stat '(.+)': No such file or directory$/m.exec(error.stderr)?.[1];
  if (gone === undefined) {
    return undefined;
  }
  const named = toLiteralPathspec(gone);
  if (specs.includes(named)) {
    return specs.filter((spec) => spec !== named);
  }
  const excluded = excludePathspec(gone);
  return specs.includes(excluded) ? undefined : [...specs, excluded];
}
