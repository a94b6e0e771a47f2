import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { IgnoreFileRules, type IgnoreFile } from '../../../src/features/mentions/chat/ignoreFileRules';
import { findGit, listGitFiles } from '../../../src/features/mentions/core/gitFileList';

/** No global or system config: only the repository's own rules count, for git and for us alike. */
const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: GIT_ENV });
}

/** Writes `files` (path → text) under `root`. */
function writeTree(root: string, files: Record<string, string>): void {
  for (const [relative, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), content);
  }
}

/** Every file under `root` outside `.git`, relative with `/`. */
function walk(root: string, dir = ''): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.name === '.git') {
      return [];
    }
    return entry.isDirectory() ? walk(root, relative) : [relative];
  });
}

/** What git itself says is ignored: the untracked files `git ls-files` leaves out with the standard excludes. */
function ignoredByGit(root: string): Set<string> {
  const listed = git(root, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard']);
  return new Set(listed.split('\0').filter((file) => file.length > 0));
}

/** The fallback's rules for the repository at `root`, read as the file index reads them. */
function fallbackRulesOf(root: string): IgnoreFileRules {
  const gitignores: IgnoreFile[] = walk(root)
    .filter((file) => path.posix.basename(file) === '.gitignore')
    .map((file) => ({
      dir: path.posix.dirname(file) === '.' ? '' : path.posix.dirname(file),
      content: fs.readFileSync(path.join(root, file), 'utf8'),
    }));
  let infoExclude: string | undefined;
  try {
    infoExclude = fs.readFileSync(path.join(root, '.git', 'info', 'exclude'), 'utf8');
  } catch {
    infoExclude = undefined;
  }
  return new IgnoreFileRules(infoExclude, gitignores, { ignoreCase: false });
}

const gitPath = (): string => execFileSync('which', ['git'], { encoding: 'utf8' }).trim();

function list(
  folder: string,
  options: { maxFiles?: number; accept?: (file: string) => boolean; signal?: AbortSignal } = {},
) {
  return listGitFiles({
    git: gitPath(),
    folder,
    signal: options.signal ?? AbortSignal.timeout(20_000),
    maxFiles: options.maxFiles ?? 50_000,
    accept: options.accept ?? (() => true),
  });
}

/** Nested files, negations, anchors, folders, escapes, trailing spaces, CRLF, a file in an excluded folder. */
const SCENARIO: Record<string, string> = {
  '.gitignore': [
    '# build output',
    '*.log',
    '!keep.log',
    '/build',
    'tmp/',
    'docs/*.md',
    '!docs/README.md',
    '\\#hash',
    'node_modules',
    'trailing.txt   ',
  ].join('\n'),
  'sub/.gitignore': ['!important.log', 'local/', '/only-here.txt', '*.gen.ts'].join('\r\n'),
  'sub/deep/.gitignore': '!*.gen.ts\n',
  // Inside an excluded folder: git never reads it, so its negation re-includes nothing.
  'build/.gitignore': '!*\n',
  'weird[1]/.gitignore': '*.txt\n',
  '.git/info/exclude': 'secret.txt\n',
  'a.log': '',
  'A.LOG': '',
  'keep.log': '',
  'sub/keep.log': '',
  'sub/important.log': '',
  'sub/other.log': '',
  'sub/deep/more/important.log': '',
  'build/out.js': '',
  'build/keep.log': '',
  'src/build/x.js': '',
  'tmp/t.txt': '',
  'src/tmp/t.txt': '',
  'sub/tmp': '',
  'docs/a.md': '',
  'docs/README.md': '',
  'docs/sub/b.md': '',
  '#hash': '',
  'sub/#hash': '',
  'node_modules/x/index.js': '',
  'sub/node_modules/y.js': '',
  'sub/local/l.txt': '',
  'sub/only-here.txt': '',
  'sub/deep/only-here.txt': '',
  'sub/x.gen.ts': '',
  'sub/deep/y.gen.ts': '',
  'sub/deep/z/w.gen.ts': '',
  'secret.txt': '',
  'sub/secret.txt': '',
  'trailing.txt': '',
  'weird[1]/a.txt': '',
  'weird[1]/b.md': '',
  'weird1/a.txt': '',
  'src/main.ts': '',
};

describe('what git ignores, for the @-mention file index', () => {
  let root: string;

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(tmpdir(), 'acp-gitignore-')));
    git(root, ['init', '-q', '.']);
  });

  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('lists with git exactly the files git does not ignore (nested files, negations, info/exclude)', async () => {
    writeTree(root, SCENARIO);
    const ignored = ignoredByGit(root);
    const files = walk(root);

    const listed = await list(root);

    assert.deepEqual([...(listed ?? [])].sort(), files.filter((file) => !ignored.has(file)).sort());
    // Checked by hand too: both answers could be wrong the same way only by luck.
    assert.ok(
      ignored.has('sub/other.log') && !ignored.has('sub/important.log') && !ignored.has('sub/deep/y.gen.ts'),
    );
    assert.ok(ignored.has('build/keep.log') && !ignored.has('src/build/x.js') && ignored.has('secret.txt'));
    assert.equal(files.length, 38);
  });

  it('the fallback without git agrees with git on the same tree', () => {
    writeTree(root, SCENARIO);
    const rules = fallbackRulesOf(root);
    const ignored = ignoredByGit(root);

    const disagreements = walk(root).filter((file) => rules.ignores(file) !== ignored.has(file));

    assert.deepEqual(disagreements, [], `git ignores: ${[...ignored].sort().join(', ')}`);
  });

  it('lists a tracked file that matches an ignore pattern, as git counts it', async () => {
    writeTree(root, { 'config.local': 'x', 'other.local': 'y' });
    git(root, ['add', 'config.local']);
    writeTree(root, { '.gitignore': '*.local\n' });

    assert.deepEqual((await list(root))?.sort(), ['.gitignore', 'config.local']);
  });

  it("applies the main repository's info/exclude in a linked worktree, and lists a subfolder relative to it", async () => {
    writeTree(root, { 'a.txt': '', 'pkg/b.txt': '', 'pkg/c.secret': '' });
    git(root, ['add', '.']);
    git(root, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'x']);
    writeTree(root, { '.git/info/exclude': '*.tmp\n' });
    const worktree = `${root}-wt`;
    git(root, ['worktree', 'add', '-q', worktree]);
    try {
      writeTree(worktree, { 'new.txt': '', 'new.tmp': '', 'pkg/d.tmp': '', 'pkg/e.txt': '' });

      assert.deepEqual((await list(worktree))?.sort(), [
        'a.txt',
        'new.txt',
        'pkg/b.txt',
        'pkg/c.secret',
        'pkg/e.txt',
      ]);
      assert.deepEqual((await list(path.join(worktree, 'pkg')))?.sort(), ['b.txt', 'c.secret', 'e.txt']);
    } finally {
      fs.rmSync(worktree, { recursive: true, force: true });
    }
  });

  it('keeps only accepted files and stops git at the bound', async () => {
    writeTree(root, Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}.txt`, ''])));
    writeTree(root, { 'skip/a.txt': '', 'skip/b.txt': '' });

    const accepted = await list(root, { accept: (file) => !file.startsWith('skip/') });
    const bounded = await list(root, { maxFiles: 25 });

    assert.equal(accepted?.length, 300);
    assert.equal(bounded?.length, 25);
  });

  it('answers undefined outside a repository and when aborted, so the fallback runs', async () => {
    const plain = fs.mkdtempSync(path.join(tmpdir(), 'acp-nogit-'));
    try {
      writeTree(plain, { 'a.txt': '' });
      // A ceiling above the temp folder: git must not find a repository enclosing it.
      process.env.GIT_CEILING_DIRECTORIES = path.dirname(plain);
      assert.equal(await list(plain), undefined);
    } finally {
      delete process.env.GIT_CEILING_DIRECTORIES;
      fs.rmSync(plain, { recursive: true, force: true });
    }
    writeTree(root, { 'a.txt': '' });
    assert.equal(await list(root, { signal: AbortSignal.abort() }), undefined);
  });

  it('finds git only on absolute PATH entries outside the workspace folder', async () => {
    const fake = path.join(root, 'bin', 'git');
    writeTree(root, { 'bin/git': '#!/bin/sh\necho pwned\n', git: '#!/bin/sh\necho pwned\n' });
    fs.chmodSync(fake, 0o755);
    fs.chmodSync(path.join(root, 'git'), 0o755);
    const realGitDir = path.dirname(gitPath());
    const previous = process.cwd();
    process.chdir(root);
    try {
      const found = await findGit(
        { PATH: ['.', 'bin', path.join(root, 'bin'), realGitDir].join(path.delimiter) },
        root,
      );
      assert.equal(found, path.join(realGitDir, 'git'));
      assert.equal(
        await findGit({ PATH: ['.', path.join(root, 'bin')].join(path.delimiter) }, root),
        undefined,
      );
    } finally {
      process.chdir(previous);
    }
  });
});
