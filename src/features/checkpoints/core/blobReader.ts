import type { GitResult, GitRunOptions } from './gitRunner';

/** Runs git in the shadow repository (see gitRunner's `runGit`). */
type RunGit = (args: readonly string[], options?: GitRunOptions) => Promise<GitResult>;

/** The bytes of `rel` in commit `commit`; `undefined` when it is not a file there. */
export async function readBlob(runGit: RunGit, commit: string, rel: string): Promise<Buffer | undefined> {
  if (/[\r\n]/.test(rel)) {
    // `--batch` reads names line by line; a name with a newline or CR goes as an argument instead.
    const { stdout, exitCode } = await runGit(['cat-file', 'blob', `${commit}:${rel}`], {
      okExitCodes: [128],
    });
    return exitCode === 0 ? Buffer.from(stdout) : undefined;
  }
  const { stdout } = await runGit(['cat-file', '--batch'], { input: `${commit}:${rel}\n` });
  const header = stdout.subarray(0, stdout.indexOf(10)).toString('utf8');
  const match = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
  if (match?.[1] !== 'blob') {
    return undefined;
  }
  const start = header.length + 1;
  return Buffer.from(stdout.subarray(start, start + Number(match[2])));
}
