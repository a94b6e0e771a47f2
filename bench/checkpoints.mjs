// Checkpoint benchmark (`npm run bench`): builds a workspace of 20,000 small files in a temp dir and
// times the checkpoint store the chat calls before each prompt (a shadow git repository, real git).
// A turn without checkpoints sends the prompt at once (0 ms); the figure that matters is what a
// no-change checkpoint adds to that. It prints figures and writes bench-results/checkpoints.json
// (read by bench/run.mjs for its table); it asserts nothing. `measureCheckpoints` is also the big
// workspace's (bench/bigWorkspace.mjs).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { tsImport } from 'tsx/esm/api';
import { diskBytes, makeFlatWorkspace } from './generatedWorkspace.mjs';

const FILES = Number(process.env.FILES ?? 20_000);
const NO_CHANGE_RUNS = 7;
const GOAL_MS = 300;

const { createCheckpointStore } = await tsImport(
  '../src/features/checkpoints/core/index.ts',
  import.meta.url,
);
const { findUnreadableRules } = await tsImport(
  '../src/features/checkpoints/core/ruleFiles.ts',
  import.meta.url,
);
const { runGit } = await tsImport('../src/features/checkpoints/core/gitRunner.ts', import.meta.url);
const silent = { trace() {}, info() {}, warn() {}, error() {} };

export async function timed(work) {
  const start = performance.now();
  const result = await work();
  return { ms: performance.now() - start, result };
}

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
export const fmt = (ms) => `${ms.toFixed(1)} ms`;
export const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/**
 * Times the real checkpoint store on `workspace`, printing as it goes: opening it, the first checkpoint
 * (and the disk its shadow repository then takes), no-change checkpoints, the rule-file walk, `changes()`
 * and a checkpoint after `edit` changed files (`edit` writes them and returns how many). `ignoredDir` is
 * the folder the workspace's .gitignore names (`dist/`), which the walk skips as the store does.
 */
export async function measureCheckpoints(workspace, storageDir, ignoredDir, edit) {
  const opened = await timed(() =>
    createCheckpointStore({ folders: [workspace], storageDir, logger: silent }),
  );
  const store = opened.result;
  console.log(`  store (git probe + shadow repository)    ${fmt(opened.ms)}   coverage: ${store.coverage}`);

  const first = await timed(() => store.create());
  const packStart = performance.now();
  const firstBytes = diskBytes(storageDir);
  console.log(
    `  first checkpoint (hashes every file)     ${fmt(first.ms)}   shadow repository ${mib(firstBytes)} on disk`,
  );
  // The store packs a large first checkpoint's loose objects beside its queue (git gc --auto, in the
  // background): the next checkpoint does not wait for it. Taken at once, while the pack runs.
  const next = await timed(() => store.create());
  // git's gc.pid is there while the gc runs.
  const shadows = join(storageDir, 'checkpoints');
  const packRunning = readdirSync(shadows).some((key) => existsSync(join(shadows, key, 'gc.pid')));
  await store.idle?.();
  const packMs = performance.now() - packStart;
  const packedBytes = diskBytes(storageDir);
  console.log(
    `  the next checkpoint                      ${fmt(next.ms)}   (${packRunning ? 'while the pack ran' : 'the pack had not started or was done'}; the pack took ${fmt(packMs)} beside it, then ${mib(packedBytes)} on disk)`,
  );

  const runs = [];
  let last = first.result;
  for (let i = 0; i < NO_CHANGE_RUNS; i++) {
    const run = await timed(() => store.create());
    runs.push(run.ms);
    last = run.result;
  }
  const noChange = median(runs);
  console.log(
    `  no-change checkpoint, median of ${NO_CHANGE_RUNS}       ${fmt(noChange)}   (min ${fmt(Math.min(...runs))}, max ${fmt(Math.max(...runs))})`,
  );
  const parts = await noChangeParts(store);

  // Part of a full look (a no-change look skips it while the folder stamps hold): the walk that looks for
  // FIFOs named .gitignore / .gitattributes.
  const walks = [];
  for (let i = 0; i < NO_CHANGE_RUNS; i++) {
    walks.push((await timed(() => findUnreadableRules(workspace, (dir) => dir === ignoredDir))).ms);
  }
  const walk = median(walks);
  console.log(`  the rule-file walk alone (a full look's), median ${fmt(walk)}`);

  const edited = edit();
  const afterEdit = await timed(() => store.create());
  console.log(`  checkpoint after ${edited} file(s) changed     ${fmt(afterEdit.ms)}`);

  // As after a turn: the folder now (a no-change snapshot) against the checkpoint before the edit.
  const changes = await timed(() => store.changes(last));
  console.log(
    `  changes() with ${edited} file(s) changed        ${fmt(changes.ms)}   (${changes.result.length} listed)`,
  );
  await store.idle?.();
  store.dispose();
  // The next window: its store opens and takes its first checkpoint at once (before issue 23 it
  // waited there for the pack, 73 s at 200,000 files).
  const reopened = await timed(async () => {
    const again = await createCheckpointStore({ folders: [workspace], storageDir, logger: silent });
    await again.create();
    return again;
  });
  await reopened.result.idle?.();
  reopened.result.dispose();
  console.log(`  next window: open + first checkpoint     ${fmt(reopened.ms)}`);
  return {
    storeMs: opened.ms,
    firstMs: first.ms,
    firstBytes,
    noChangeMs: noChange,
    noChangeRuns: runs,
    ...parts,
    ruleWalkMs: walk,
    edited,
    changesMs: changes.ms,
    changesListed: changes.result.length,
    afterEditMs: afterEdit.ms,
    nextMs: next.ms,
    packMs,
    packRunning,
    reopenMs: reopened.ms,
    packedBytes,
  };
}

/**
 * The no-change checkpoint's two parts, each alone and then side by side as the checkpoint runs them (on 2
 * cores they compete): git's stat of the indexed files (`diff-files`) and our stamps of the folders and rule
 * files (`FolderStamps.unchanged`, on a worker thread), medians of NO_CHANGE_RUNS, with the CPU time our
 * process spent on the stamps. Reached through the store's private fields: a bench, not an API.
 */
async function noChangeParts(store) {
  const repo = [...store.repos.values()][0];
  const stamps = repo?.listing.trusted?.stamps;
  if (stamps === undefined) {
    console.log('  (no trusted folder stamps: the parts are not measured)');
    return {};
  }
  const diffFiles = () => runGit(repo.location, ['diff-files', '--name-only', '-z', '--no-renames']);
  const alone = { diffFiles: [], stamps: [], stampsCpu: [], both: [] };
  for (let i = 0; i < NO_CHANGE_RUNS; i++) {
    alone.diffFiles.push((await timed(diffFiles)).ms);
    const cpu = process.cpuUsage();
    alone.stamps.push((await timed(() => stamps.unchanged())).ms);
    const used = process.cpuUsage(cpu);
    alone.stampsCpu.push((used.user + used.system) / 1000);
    alone.both.push((await timed(() => Promise.all([diffFiles(), stamps.unchanged()]))).ms);
  }
  const figures = {
    diffFilesMs: median(alone.diffFiles),
    stampsMs: median(alone.stamps),
    stampsCpuMs: median(alone.stampsCpu),
    bothMs: median(alone.both),
    stamped: stamps.stamps.size,
  };
  console.log(
    `  of which, medians: git diff-files alone ${fmt(figures.diffFilesMs)}, the ${figures.stamped.toLocaleString('en')} folder and rule-file stamps alone ${fmt(figures.stampsMs)} (${fmt(figures.stampsCpuMs)} of our CPU), both side by side ${fmt(figures.bothMs)}`,
  );
  return { parts: figures };
}

async function main() {
  const root = mkdtempSync(join(tmpdir(), 'acp-bench-checkpoints-'));
  try {
    const made = await timed(async () => makeFlatWorkspace(root, FILES));
    const workspace = made.result;
    console.log(`Checkpoints: workspace of ${FILES.toLocaleString('en')} files written in ${fmt(made.ms)}`);
    const figures = await measureCheckpoints(workspace, join(root, 'storage'), 'dist/', () => {
      writeFileSync(join(workspace, 'src', 'module7', 'file7.ts'), 'export const changed = true;\n');
      return 1;
    });
    const noChange = figures.noChangeMs;
    console.log(
      `  prompt send without checkpoint: 0 ms; with one: +${Math.round(noChange)} ms vs goal +${GOAL_MS} ms` +
        (noChange < GOAL_MS ? '' : '   ** above the goal **'),
    );
    const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'bench-results');
    mkdirSync(out, { recursive: true });
    writeFileSync(
      join(out, 'checkpoints.json'),
      `${JSON.stringify(
        {
          files: FILES,
          ...figures,
          goalMs: GOAL_MS,
          summary: `+${fmt(noChange)} per prompt (median of ${NO_CHANGE_RUNS}; first ${fmt(figures.firstMs)})`,
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await main();
}
