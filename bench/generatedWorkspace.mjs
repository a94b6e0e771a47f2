// Generated workspaces for the benches that need a folder of files on disk (checkpoints, the big workspace).
// Deterministic: the same arguments write the same bytes, so figures from two runs compare.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * `files` source-like files of ~1 KB in folders of 100 under `src/`, plus an ignored `dist/` (the shape
 * of the 20,000-file checkpoint figure; not a git repository).
 */
export function makeFlatWorkspace(root, files) {
  const perDir = 100;
  const workspace = join(root, 'workspace');
  for (let i = 0; i < files; i++) {
    const dir = join(workspace, 'src', `module${Math.floor(i / perDir)}`);
    if (i % perDir === 0) {
      mkdirSync(dir, { recursive: true });
    }
    const lines = Array.from({ length: 30 }, (_, line) => `export const value${line} = ${i * 31 + line};`);
    writeFileSync(join(dir, `file${i % perDir}.ts`), `${lines.join('\n')}\n`);
  }
  writeFileSync(join(workspace, '.gitignore'), 'dist/\n');
  mkdirSync(join(workspace, 'dist'));
  writeFileSync(join(workspace, 'dist', 'bundle.js'), 'ignored\n'.repeat(10_000));
  return workspace;
}

/** Files per leaf folder of the monorepo, and one file in this many is a large one. */
const PER_LEAF = 40;
const LARGE_EVERY = 200;
const NAMES = ['index', 'service', 'helpers', 'view', 'types', 'store', 'model', 'utils', 'client', 'parser'];
const EXTENSIONS = ['ts', 'ts', 'ts', 'tsx', 'js', 'json', 'md', 'css'];

/** A small deterministic pseudo-random sequence (LCG), so the workspace is the same on every run. */
function random(seed) {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A file's bytes: unique (its own number is in it, so git stores each), 200 B–2 KB; 18–72 KB when large. */
function fileText(index, next) {
  const large = index % LARGE_EVERY === LARGE_EVERY - 1;
  const lines = large ? 400 + Math.floor(next() * 1200) : 5 + Math.floor(next() * 45);
  const out = [`// file ${index}`];
  for (let line = 1; line < lines; line++) {
    out.push(`export const v${line} = ${Math.floor(next() * 1e9)}; // ${NAMES[line % NAMES.length]}`);
  }
  return `${out.join('\n')}\n`;
}

/**
 * The relative paths (with `/`) of makeMonorepo's files, in the order written, without writing them: for
 * benches of the paths alone (the @-mention ranker, bench/mentionScale.mjs).
 */
export function monorepoPaths(files) {
  const paths = [];
  let dir = '';
  for (let i = 0; i < files; i++) {
    if (i % PER_LEAF === 0) {
      const leaf = Math.floor(i / PER_LEAF);
      const pkg = Math.floor(leaf / 50);
      const kind = leaf % 5 === 4 ? 'test' : 'src';
      dir = `packages/pkg${pkg}/${kind}/area${leaf % 7}/part${leaf}`;
      if (leaf % 3 === 0) {
        dir = `${dir}/nested`;
      }
    }
    paths.push(`${dir}/${NAMES[i % NAMES.length]}${i}.${EXTENSIONS[i % EXTENSIONS.length]}`);
  }
  return paths;
}

/**
 * A monorepo of `files` files: `packages/pkgN/{src,test}/areaN/sub/…` (nested 4–5 deep, 40 files per
 * folder), mostly small text files, one in 200 large; a `.gitignore` naming `build/` and `node_modules/`,
 * with an ignored `build/` of 2,000 files; a real git repository with every file committed. Returns the
 * folder and the relative paths of the files written (committed ones only).
 */
export function makeMonorepo(root, files) {
  const workspace = join(root, 'monorepo');
  const next = random(23);
  const paths = monorepoPaths(files);
  paths.forEach((rel, i) => {
    if (i % PER_LEAF === 0) {
      mkdirSync(join(workspace, dirname(rel)), { recursive: true });
    }
    writeFileSync(join(workspace, rel), fileText(i, next));
  });
  writeFileSync(join(workspace, '.gitignore'), 'build/\nnode_modules/\n*.log\n');
  for (let i = 0; i < 2000; i++) {
    const build = join(workspace, 'build', `chunk${Math.floor(i / 100)}`);
    if (i % 100 === 0) {
      mkdirSync(build, { recursive: true });
    }
    writeFileSync(join(build, `out${i}.js`), `// generated ${i}\n${'x'.repeat(500)}\n`);
  }
  const git = (...args) =>
    execFileSync('git', ['-c', 'core.fsmonitor=false', ...args], {
      cwd: workspace,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'bench',
        GIT_AUTHOR_EMAIL: 'bench@example.invalid',
        GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
        GIT_COMMITTER_NAME: 'bench',
        GIT_COMMITTER_EMAIL: 'bench@example.invalid',
        GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
      },
      maxBuffer: 64 * 1024 * 1024,
    });
  git('init', '--quiet', '--initial-branch=main');
  git('add', '-A');
  git('commit', '--quiet', '--no-gpg-sign', '-m', 'generated');
  return { workspace, paths };
}

/** Bytes a folder takes on disk (allocated blocks, as `du` counts them), links not followed. */
export function diskBytes(folder) {
  let total = 0;
  const pending = [folder];
  while (pending.length > 0) {
    const dir = pending.pop();
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      const info = lstatSync(full);
      total += info.blocks * 512;
      if (entry.isDirectory()) {
        pending.push(full);
      }
    }
  }
  return total;
}
