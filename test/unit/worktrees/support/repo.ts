import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RepoGit } from '../../../../src/features/worktrees/core/repoGit';

/** git as the user runs it in a test repository (their own hooks and configuration apply). */
export function userGit(cwd: string, args: readonly string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: path.dirname(cwd) },
  });
}

/** A sandbox: a workspace folder that is a git repository with one commit, and a storage folder. */
export interface Sandbox {
  readonly root: string;
  readonly repo: string;
  readonly storage: string;
  readonly git: RepoGit;
  write(rel: string, text: string): void;
  read(file: string): string;
  /** What the user sees of their repository: status, HEAD, stash list, the index file's bytes. */
  userView(): { status: string; head: string; stash: string; index: string };
  dispose(): void;
}

export function sandbox(files: Record<string, string> = { 'app.txt': 'one\ntwo\nthree\n' }): Sandbox {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'acp-worktrees-')));
  const repo = path.join(root, 'project');
  const storage = path.join(root, 'storage');
  mkdirSync(repo);
  userGit(repo, ['init', '-q', '-b', 'main']);
  userGit(repo, ['config', 'user.name', 'Test User']);
  userGit(repo, ['config', 'user.email', 'user@example.invalid']);
  const write = (rel: string, text: string): void => {
    const file = path.join(repo, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  for (const [rel, text] of Object.entries(files)) {
    write(rel, text);
  }
  userGit(repo, ['add', '-A']);
  userGit(repo, ['commit', '-q', '-m', 'first']);
  return {
    root,
    repo,
    storage,
    git: new RepoGit('git', path.join(storage, 'no-hooks')),
    write,
    read: (file) => readFileSync(file, 'utf8'),
    // The index is read first, and status runs without optional locks: looking must not write it.
    userView: () => ({
      index: readFileSync(path.join(repo, '.git', 'index')).toString('base64'),
      status: userGit(repo, ['--no-optional-locks', 'status', '--porcelain', '--untracked-files=all']),
      head: userGit(repo, ['rev-parse', 'HEAD']),
      stash: userGit(repo, ['stash', 'list']),
    }),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}
