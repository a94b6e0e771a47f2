import { killedBySignal, splitNul } from './gitRunner';

/**
 * The folder's new and modified files as `ls-files -t` entries (`<tag> <path>`; `?` for untracked). To tell
 * whether a recently written file changed, git reads it — and one truncated under it kills git (SIGBUS),
 * again on its retry when it is rewritten in a loop. Then every tracked file is listed as possibly modified
 * (`ls-files -c` reads no file), and the staging that follows watches each of them as it reads them.
 */
export async function listChangedFiles(git: (args: readonly string[]) => Promise<string>): Promise<string[]> {
  try {
    return splitNul(await git(['ls-files', '-z', '-t', '-o', '-m', '--exclude-standard']));
  } catch (error) {
    if (!killedBySignal(error)) {
      throw error;
    }
    const untracked = splitNul(await git(['ls-files', '-z', '-t', '-o', '--exclude-standard']));
    const tracked = splitNul(await git(['ls-files', '-z', '-t', '-c']));
    return [...untracked, ...tracked];
  }
}
