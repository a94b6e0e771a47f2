/* global AbortSignal */
// Big-workspace benchmark (`BENCH_ONLY=bigworkspace npm run bench`; about 4 minutes at 200,000 files on 2 cores,
// so the default `npm run bench` only shows its last figures):
// a generated monorepo of BENCH_FILES files (default 200,000; bench/generatedWorkspace.mjs), a real git
// repository, measured with the real checkpoint store (the same steps as the 20,000-file figure,
// bench/checkpoints.mjs) and the real @-mention file list (`git ls-files`, src/features/mentions/core) ranked
// as the picker ranks it. Prints figures, writes bench-results/bigworkspace.json for bench/run.mjs's table;
// asserts nothing.
import { loadavg, tmpdir } from 'node:os';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { tsImport } from 'tsx/esm/api';
import { fmt, measureCheckpoints, median, mib, timed } from './checkpoints.mjs';
import { diskBytes, makeMonorepo } from './generatedWorkspace.mjs';
import { bigWorkspaceRows, formatRow } from './rows.mjs';

const FILES = Number(process.env.BENCH_FILES ?? 200_000);
const CHANGED = 100;
const QUERIES = ['', 'serv', 'pkg12/view', 'zzzz'];
const QUERY_RUNS = 7;
const LIMIT = 50;

const { MAX_INDEXED_FILES, findGit, listGitFiles } = await tsImport(
  '../src/features/mentions/core/gitFileList.ts',
  import.meta.url,
);
const { fuzzyPathScore, rankBy } = await tsImport(
  '../src/features/mentions/chat/fuzzyRank.ts',
  import.meta.url,
);

const load = () => loadavg()[0].toFixed(1);
const gc = () => globalThis.gc?.();
const heap = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

/** The picker's index as VsCodeMentionSource builds it: each file's relative path, and every folder. */
function buildIndex(relatives) {
  const files = relatives.map((relative) => ({ relative }));
  const folders = new Set();
  for (const { relative } of files) {
    let slash = relative.lastIndexOf('/');
    while (slash > 0) {
      const folder = relative.slice(0, slash);
      if (folders.has(folder)) {
        break;
      }
      folders.add(folder);
      slash = folder.lastIndexOf('/');
    }
  }
  return { files, folders: [...folders] };
}

const rank = (index, query) => [
  ...rankBy(index.files, query, (q, file) => fuzzyPathScore(q, file.relative), LIMIT),
  ...rankBy(index.folders, query, fuzzyPathScore, 5),
];

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
  const queries = QUERIES.map((query) => {
    const times = [];
    for (let run = 0; run < QUERY_RUNS; run++) {
      times.push(
        (() => {
          const start = performance.now();
          rank(index, query);
          return performance.now() - start;
        })(),
      );
    }
    return { query, ms: median(times) };
  });
  // What the bound saves: every file git lists, as the index would hold them without it.
  const unbounded = await timed(async () => buildIndex(await list(Number.MAX_SAFE_INTEGER)));
  const heapUnbounded = heap() - heapBefore;
  console.log(
    `  mentions: first results for "serv"       ${fmt(first.ms)}   (${index.files.length.toLocaleString('en')} files indexed of ${unbounded.result.files.length.toLocaleString('en')}, bound ${MAX_INDEXED_FILES.toLocaleString('en')}; heap +${mib(heapUsed)})`,
  );
  console.log(
    `  mentions: a keystroke, median per query  ${queries.map((q) => `${JSON.stringify(q.query)} ${fmt(q.ms)}`).join(', ')}`,
  );
  console.log(
    `  mentions without the bound               ${fmt(unbounded.ms)} to list and index all ${unbounded.result.files.length.toLocaleString('en')}; heap +${mib(heapUnbounded - heapUsed)} more`,
  );
  return {
    firstResultsMs: first.ms,
    indexed: index.files.length,
    listable: unbounded.result.files.length,
    bound: MAX_INDEXED_FILES,
    heapBytes: heapUsed,
    queries,
    unboundedMs: unbounded.ms,
    unboundedHeapBytes: heapUnbounded,
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
    const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'bench-results');
    mkdirSync(out, { recursive: true });
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
