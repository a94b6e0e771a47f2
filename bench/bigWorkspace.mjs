/* global AbortSignal */
// Big-workspace benchmark (`BENCH_ONLY=bigworkspace npm run bench`; about 4 minutes at 200,000 files on 2 cores,
// so the default `npm run bench` only shows its last figures):
// a generated monorepo of BENCH_FILES files (default 200,000; bench/generatedWorkspace.mjs), a real git
// repository, measured with the real checkpoint store (the same steps as the 20,000-file figure,
// bench/checkpoints.mjs), the real @-mention file list (`git ls-files`, src/features/mentions/core) ranked
// as the picker ranks it, and a chat's worktree made and a 500-file change applied back (bench/worktrees.mjs).
// Prints figures, writes bench-results/bigworkspace.json and bench-results/worktrees.json for bench/run.mjs's
// table; asserts nothing. BENCH_PARTS=worktrees measures only the worktrees (bigworkspace.json is left as it is).
import { loadavg, tmpdir } from 'node:os';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { tsImport } from 'tsx/esm/api';
import { fmt, measureCheckpoints, median, mib, timed } from './checkpoints.mjs';
import { diskBytes, makeMonorepo } from './generatedWorkspace.mjs';
import { bigWorkspaceRows, formatRow, worktreeRows } from './rows.mjs';
import { bundledRanking } from './bundledRanking.mjs';
import { measureWorktrees } from './worktrees.mjs';

const FILES = Number(process.env.BENCH_FILES ?? 200_000);
const CHANGED = 100;
const QUERIES = ['', 'serv', 'pkg12/view', 'zzzz'];
const QUERY_RUNS = 7;
const LIMIT = 50;
const PARTS = (process.env.BENCH_PARTS ?? 'checkpoints,mentions,worktrees').split(',');

const { MAX_INDEXED_FILES, findGit, listGitFiles } = await tsImport(
  '../src/features/mentions/core/gitFileList.ts',
  import.meta.url,
);
// The ranker bundled as the extension runs it; folderPaths: every folder the files are in, as
// VsCodeMentionSource lists them.
const { folderPaths, fuzzyPathScore, PathRanker, rankBy } = await bundledRanking();

const load = () => loadavg()[0].toFixed(1);
const gc = () => globalThis.gc?.();
/** The JS heap and the typed arrays' buffers (the ranker's per-path tables live there, off the heap). */
const heap = () => {
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

/** The picker's index as VsCodeMentionSource builds it: a ranker of the files, one of their folders. */
const buildIndex = (paths) => ({ files: new PathRanker(paths), folders: new PathRanker(folderPaths(paths)) });

/** A keystroke as the picker ranks it: the best 50 files and the best 5 folders. */
const rank = (index, query) => [...index.files.rank(query, LIMIT), ...index.folders.rank(query, 5)];

const forget = (index) => {
  index.files.forget();
  index.folders.forget();
};

/** Median time of `work` over QUERY_RUNS runs. */
function medianTime(work) {
  const times = [];
  for (let run = 0; run < QUERY_RUNS; run++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** The mention index on `workspace`: listing (bounded as the extension bounds it) + index + first ranking. */
async function measureMentions(workspace) {
  const git = await findGit(process.env, workspace);
  const list = (maxFiles) =>
    listGitFiles({
      git,
      folder: workspace,
      signal: AbortSignal.timeout(120_000),
      maxFiles,
      accept: () => true,
    });
  const heapBefore = heap();
  const first = await timed(async () => {
    const listed = await list(MAX_INDEXED_FILES);
    const index = buildIndex(listed);
    return { index, shown: rank(index, 'serv').length };
  });
  const { index } = first.result;
  const heapUsed = heap() - heapBefore;
  const indexed = index.files.paths.length;
  const listable = indexed < MAX_INDEXED_FILES ? indexed : (await list(Number.MAX_SAFE_INTEGER)).length;
  const queries = QUERIES.map((query) => {
    // A query pasted or typed after a pause: every path looked at.
    const fresh = medianTime(() => {
      forget(index);
      rank(index, query);
    });
    // Typed one character at a time after "@": the slowest keystroke (each but the first ranks only the
    // previous one's matches).
    const keystrokes = [...query].map((_, typed) => query.slice(0, typed + 1));
    const typedWorst = median(
      Array.from({ length: QUERY_RUNS }, () => {
        forget(index);
        rank(index, '');
        let worst = 0;
        for (const prefix of keystrokes) {
          const start = performance.now();
          rank(index, prefix);
          worst = Math.max(worst, performance.now() - start);
        }
        return worst;
      }),
    );
    return { query, ms: fresh, typedWorstMs: typedWorst };
  });
  // Before issue 23's ranker: every path scored with fuzzyPathScore and all matches sorted, per keystroke.
  const paths = index.files.paths;
  const before = medianTime(() => rankBy(paths, 'serv', fuzzyPathScore, LIMIT));
  console.log(
    `  mentions: first results for "serv"       ${fmt(first.ms)}   (${indexed.toLocaleString('en')} files indexed of ${listable.toLocaleString('en')}, bound ${MAX_INDEXED_FILES.toLocaleString('en')}; heap +${mib(heapUsed)})`,
  );
  console.log(
    `  mentions: a keystroke, median per query  ${queries.map((q) => `${JSON.stringify(q.query)} ${fmt(q.ms)}`).join(', ')}; the whole list ranked as before (rankBy, "serv") ${fmt(before)}`,
  );
  console.log(
    `  mentions: typed a character at a time     slowest keystroke ${queries.map((q) => `${JSON.stringify(q.query)} ${fmt(q.typedWorstMs)}`).join(', ')}`,
  );
  return {
    firstResultsMs: first.ms,
    indexed,
    listable,
    bound: MAX_INDEXED_FILES,
    heapBytes: heapUsed,
    queries,
    rankByMs: before,
  };
}

async function main() {
  const root = mkdtempSync(join(tmpdir(), 'acp-bench-big-'));
  const loads = [load()];
  try {
    const made = await timed(async () => makeMonorepo(root, FILES));
    const { workspace, paths } = made.result;
    loads.push(load());
    const workspaceBytes = diskBytes(workspace);
    console.log(
      `Big workspace: ${FILES.toLocaleString('en')} files written and committed in ${fmt(made.ms)}, ${mib(workspaceBytes)} on disk with its .git (load ${loads.join(' → ')})`,
    );
    const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'bench-results');
    mkdirSync(out, { recursive: true });
    if (PARTS.includes('worktrees')) {
      const worktrees = await measureWorktrees(workspace, paths, root);
      loads.push(load());
      writeFileSync(
        join(out, 'worktrees.json'),
        `${JSON.stringify({ date: new Date().toISOString(), loadAverage: [...loads], ...worktrees }, null, 2)}\n`,
      );
      for (const row of worktreeRows(JSON.parse(readFileSync(join(out, 'worktrees.json'), 'utf8')))) {
        console.log(formatRow(row));
      }
    }
    if (!PARTS.includes('checkpoints') || !PARTS.includes('mentions')) {
      return;
    }
    const checkpoints = await measureCheckpoints(workspace, join(root, 'storage'), 'build/', () => {
      const step = Math.max(1, Math.floor(paths.length / CHANGED));
      let edited = 0;
      for (let i = 0; i < paths.length && edited < CHANGED; i += step, edited++) {
        const file = join(workspace, paths[i]);
        writeFileSync(file, `${readFileSync(file, 'utf8')}// changed\n`);
      }
      return edited;
    });
    loads.push(load());
    const mentions = await measureMentions(workspace);
    loads.push(load());
    writeFileSync(
      join(out, 'bigworkspace.json'),
      `${JSON.stringify({ date: new Date().toISOString(), files: FILES, writeMs: made.ms, workspaceBytes, loadAverage: loads, checkpoints, mentions }, null, 2)}\n`,
    );
    console.log(`  load average ${loads.join(' → ')}; wrote bench-results/bigworkspace.json`);
    for (const row of bigWorkspaceRows(JSON.parse(readFileSync(join(out, 'bigworkspace.json'), 'utf8')))) {
      console.log(formatRow(row));
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
