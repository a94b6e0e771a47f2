// The @-mention ranker alone at big-workspace scale (`node --expose-gc bench/mentionScale.mjs`, ~1 min):
// bench/generatedWorkspace.mjs's 200,000 monorepo paths (BENCH_FILES), not written to disk, sorted as
// `git ls-files` lists them, indexed and ranked as the picker does (the best 50 files and 5 folders) by
// the ranker bundled as the extension runs it (bench/bundledRanking.mjs), each ranking checked against
// `rankBy`. Prints wall and CPU medians with the load; asserts nothing. The same queries are timed on
// the real listing by bench/bigWorkspace.mjs (BENCH_ONLY=bigworkspace).
import { cpuUsage } from 'node:process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { bundledRanking } from './bundledRanking.mjs';
import { monorepoPaths } from './generatedWorkspace.mjs';

const FILES = Number(process.env.BENCH_FILES ?? 200_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const QUERIES = (process.env.BENCH_QUERIES ?? 'serv,pkg12/view,s,index,zzzz,srvc,pkg1/src/view10,ts').split(
  ',',
);
const { folderPaths, fuzzyPathScore, PathRanker, rankBy } = await bundledRanking();

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const fmt = (ms) => `${ms.toFixed(1)} ms`;
const load = () => loadavg()[0].toFixed(1);

/** Wall and CPU milliseconds of `work`. */
function time(work) {
  const cpu = cpuUsage();
  const start = performance.now();
  work();
  const wall = performance.now() - start;
  const used = cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

const paths = monorepoPaths(FILES).sort();
const folders = folderPaths(paths);
const loads = [load()];
const built = time(() => {
  globalThis.index = { files: new PathRanker(paths), folders: new PathRanker(folders) };
});
const { index } = globalThis;
console.log(
  `${paths.length.toLocaleString('en')} paths, ${folders.length.toLocaleString('en')} folders: indexed in ${fmt(built.wall)} (CPU ${fmt(built.cpu)})`,
);
const rank = (query) => [index.files.rank(query, 50), index.folders.rank(query, 5)];
const forget = () => {
  index.files.forget();
  index.folders.forget();
};

let mismatches = 0;
for (const query of QUERIES) {
  const keystrokes = [...query].map((_, typed) => query.slice(0, typed + 1));
  for (const prefix of keystrokes) {
    forget();
    const [files, shownFolders] = rank(prefix);
    const expectFiles = rankBy(
      paths.map((_, i) => i),
      prefix,
      (q, i) => fuzzyPathScore(q, paths[i]),
      50,
    );
    const expectFolders = rankBy(
      folders.map((_, i) => i),
      prefix,
      (q, i) => fuzzyPathScore(q, folders[i]),
      5,
    );
    if (JSON.stringify([files, shownFolders]) !== JSON.stringify([expectFiles, expectFolders])) {
      mismatches++;
      console.log(`  MISMATCH for ${JSON.stringify(prefix)}`);
    }
  }
  const fresh = [];
  const typed = [];
  for (let run = 0; run < RUNS; run++) {
    fresh.push(
      time(() => {
        forget();
        rank(query);
      }),
    );
    forget();
    rank('');
    let worst = { wall: 0, cpu: 0 };
    for (const prefix of keystrokes) {
      const one = time(() => rank(prefix));
      worst = one.wall > worst.wall ? one : worst;
    }
    typed.push(worst);
  }
  console.log(
    `  ${JSON.stringify(query).padEnd(20)} afresh ${fmt(median(fresh.map((t) => t.wall)))} (CPU ${fmt(median(fresh.map((t) => t.cpu)))}), typed on, slowest keystroke ${fmt(median(typed.map((t) => t.wall)))} (CPU ${fmt(median(typed.map((t) => t.cpu)))})`,
  );
}
const before = median(
  Array.from({ length: 3 }, () => time(() => rankBy(paths, 'serv', fuzzyPathScore, 50)).wall),
);
loads.push(load());
console.log(
  `  rankBy (every path scored and sorted), "serv": ${fmt(before)}; ${mismatches} mismatches; load ${loads.join(' → ')}`,
);
