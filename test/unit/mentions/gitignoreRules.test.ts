import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { GitignoreRules, rebase, type IgnoreFile } from '../../../src/features/mentions/chat/gitignoreRules';

/** Writes `files` (path → text) under `root`. */
function writeTree(root: string, files: Record<string, string>): void {
  for (const [relative, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    writeFileSync(path.join(root, relative), content);
  }
}

/** Every file under `root` outside `.git`, relative with `/`. */
function walk(root: string, dir = ''): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.name === '.git') {
      return [];
    }
    return entry.isDirectory() ? walk(root, relative) : [relative];
  });
}

/** The rules of the repository at `root`, read the way the file index reads them. */
function rulesOf(root: string): GitignoreRules {
  const gitignores: IgnoreFile[] = walk(root)
    .filter((file) => path.posix.basename(file) === '.gitignore')
    .map((file) => ({
      dir: path.posix.dirname(file) === '.' ? '' : path.posix.dirname(file),
      content: readFileSync(path.join(root, file), 'utf8'),
    }));
  let infoExclude: string | undefined;
  try {
    infoExclude = readFileSync(path.join(root, '.git', 'info', 'exclude'), 'utf8');
  } catch {
    infoExclude = undefined;
  }
  return new GitignoreRules(infoExclude, gitignores, { ignoreCase: false });
}

/** What git itself says is ignored: the untracked files `git ls-files` leaves out with the standard excludes. */
function ignoredByGit(root: string): Set<string> {
  const git = (args: string[]): string =>
    execFileSync('git', args, {
      cwd: root,
      encoding: 'utf8',
      // No global or system ignore files: only the repository's own rules count.
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', HOME: root },
    });
  const listed = git(['ls-files', '-z', '--others', '--ignored', '--exclude-standard']);
  return new Set(listed.split('\0').filter((file) => file.length > 0));
}

describe('gitignore rules (the ignore package, every .gitignore in the tree)', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'acp-gitignore-'));
    execFileSync('git', ['init', '-q', root], { env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } });
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('agrees with git on nested files, negations, anchors, folders and .git/info/exclude', () => {
    writeTree(root, {
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
    });

    const rules = rulesOf(root);
    const git = ignoredByGit(root);
    const files = walk(root);
    const disagreements = files.filter((file) => rules.ignores(file) !== git.has(file));

    assert.deepEqual(disagreements, [], `git ignores: ${[...git].sort().join(', ')}`);
    // The case is worth checking by hand too: both answers could be wrong the same way only by luck.
    assert.ok(git.has('sub/other.log') && !git.has('sub/important.log') && !git.has('sub/deep/y.gen.ts'));
    assert.ok(git.has('build/keep.log') && !git.has('src/build/x.js') && git.has('secret.txt'));
    assert.equal(files.length, 38);
  });

  it('offers no folder globs once any pattern is a negation', () => {
    writeTree(root, { '.gitignore': 'out/\n!out/keep\n' });

    assert.deepEqual(rulesOf(root).folderGlobs(), []);
  });

  it('offers globs of the excluded folders that skip only what git ignores', () => {
    writeTree(root, {
      '.gitignore': 'node_modules\n/dist\n*.tmp\n',
      'packages/app/.gitignore': 'coverage/\n/generated\n[ab]cache\n',
      'node_modules/a/index.js': '',
      'packages/app/node_modules/b/index.js': '',
      'dist/main.js': '',
      'src/dist/keep.ts': '',
      'x.tmp/inside.ts': '',
      'packages/app/coverage/lcov.info': '',
      'packages/app/src/coverage/c.txt': '',
      'packages/app/generated/g.ts': '',
      'packages/app/src/generated/h.ts': '',
      'packages/app/acache/f': '',
      'packages/app/src/main.ts': '',
    });
    const rules = rulesOf(root);
    const globs = rules.folderGlobs();

    assert.deepEqual(globs, [
      '**/node_modules/**',
      'dist/**',
      '**/*.tmp/**',
      'packages/app/**/coverage/**',
      'packages/app/generated/**',
    ]);
    const git = ignoredByGit(root);
    const skipped = walk(root).filter((file) => globs.some((glob) => path.matchesGlob(file, glob)));
    assert.deepEqual(
      skipped.filter((file) => !git.has(file)),
      [],
      'a glob skipped a file git does not ignore',
    );
    assert.equal(skipped.length, 7);
  });

  it('rebases a nested file onto its folder, anchored or at any depth', () => {
    assert.deepEqual(rebase('local/', 'sub'), {
      pattern: 'sub/**/local/',
      glob: 'sub/**/local',
      negated: false,
    });
    assert.deepEqual(rebase('/only-here.txt', 'sub'), {
      pattern: 'sub/only-here.txt',
      glob: 'sub/only-here.txt',
      negated: false,
    });
    assert.deepEqual(rebase('!*.gen.ts', 'a/b'), {
      pattern: '!a/b/**/*.gen.ts',
      glob: 'a/b/**/*.gen.ts',
      negated: true,
    });
    assert.deepEqual(rebase('*.txt', 'weird[1]'), {
      pattern: 'weird\\[1\\]/**/*.txt',
      glob: undefined,
      negated: false,
    });
    assert.equal(rebase('# comment', 'sub'), undefined);
    assert.equal(rebase('   ', ''), undefined);
  });
});
