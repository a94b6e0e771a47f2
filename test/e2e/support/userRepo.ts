import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The user's repository a worktree suite opens: `project/` in a temp folder, one commit of `app.txt`. */
export interface UserRepo {
  /** The temp folder (worktrees go beside `project/`, in `project.worktrees/`). */
  readonly root: string;
  readonly repo: string;
  /** git as the user runs it in the repository. */
  git(args: readonly string[]): string;
  /** What the user sees of their repository: status, HEAD, stash list and app.txt. */
  userView(): { status: string; head: string; stash: string; file: string };
  dispose(): void;
}

export function userRepo(prefix: string, appText: string): UserRepo {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const repo = join(root, 'project');
  mkdirSync(repo);
  const git = (args: readonly string[]): string =>
    execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
  git(['init', '-q', '-b', 'main']);
  git(['config', 'user.name', 'Test User']);
  git(['config', 'user.email', 'user@example.invalid']);
  writeFileSync(join(repo, 'app.txt'), appText);
  git(['add', '-A']);
  git(['commit', '-q', '-m', 'first']);
  return {
    root,
    repo,
    git,
    userView: () => ({
      status: git(['--no-optional-locks', 'status', '--porcelain', '--untracked-files=all']),
      head: git(['rev-parse', 'HEAD']),
      stash: git(['stash', 'list']),
      file: readFileSync(join(repo, 'app.txt'), 'utf8'),
    }),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}
