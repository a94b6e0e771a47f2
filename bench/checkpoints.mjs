// Checkpoint benchmark (`npm run bench`): builds a workspace of 20,000 small files in a temp dir and
// times the checkpoint store the chat calls before each prompt (a shadow git repository, real git).
// A turn without checkpoints sends the prompt at once (0 ms); the figure that matters is what a
// no-change checkpoint adds to that. It prints figures and writes bench-results/checkpoints.json
// (read by bench/run.mjs for its table); it asserts nothing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { tsImport } from 'tsx/esm/api';

const FILES = Number(process.env.FILES ?? 20_000);
const PER_DIR = 100;
const NO_CHANGE_RUNS = 7;
const GOAL_MS = 300;

const { createCheckpointStore } = await tsImport(
  '../src/features/checkpoints/core/index.ts',
  import.meta.url,
);
const { findUnreadableRules } = await tsImport('../src/features/checkpoints/core/ruleFiles.ts', import.meta.url);
const silent = { trace() {}, info() {}, warn() {}, error() {} };

/** `FILES` source-like files of ~1 KB in folders of `PER_DIR`, plus an ignored build folder. */
function makeWorkspace(root) {
  const workspace = join(root, 'workspace');
  for (let i = 0; i < FILES; i++) {
    const dir = join(workspace, 'src', `module${Math.floor(i / PER_DIR)}`);
    if (i % PER_DIR === 0) {
      mkdirSync(dir, { recursive: true });
    }
    const lines = Array.from({ length: 30 }, (_, line) => `export const value${line} = ${i * 31 + line};`);
    writeFileSync(join(dir, `file${i % PER_DIR}.ts`), `${lines.join('\n')}\n`);
  }
  writeFileSync(join(workspace, '.gitignore'), 'dist/\n');
  mkdirSync(join(workspace, 'dist'));
  writeFileSync(join(workspace, 'dist', 'bundle.js'), 'ignored\n'.repeat(10_000));
  return workspace;
}

async function timed(work) {
  const start = performance.now();
  const result = await work();
  return { ms: performance.now() - start, result };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (ms) => `${ms.toFixed(1)} ms`;

const root = mkdtempSync(join(tmpdir(), 'acp-bench-checkpoints-'));
try {
  const made = await timed(async () => makeWorkspace(root));
  const workspace = made.result;
  console.log(`Checkpoints: workspace of ${FILES.toLocaleString('en')} files written in ${fmt(made.ms)}`);

  const opened = await timed(() =>
    createCheckpointStore({ folders: [workspace], storageDir: join(root, 'storage'), logger: silent }),
  );
  const store = opened.result;
  console.log(`  store (git probe + shadow repository)    ${fmt(opened.ms)}   coverage: ${store.coverage}`);

  const first = await timed(() => store.create());
  console.log(`  first checkpoint (hashes every file)     ${fmt(first.ms)}`);

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

  // Part of every checkpoint: the walk that looks for FIFOs named .gitignore / .gitattributes.
  const walks = [];
  for (let i = 0; i < NO_CHANGE_RUNS; i++) {
    walks.push((await timed(() => findUnreadableRules(workspace, (dir) => dir === 'dist/'))).ms);
  }
  const walk = median(walks);
  console.log(`  of which the rule-file walk, median       ${fmt(walk)}`);

  writeFileSync(join(workspace, 'src', 'module7', 'file7.ts'), 'export const changed = true;\n');
  const changes = await timed(() => store.changes(last));
  console.log(
    `  changes() with one file changed          ${fmt(changes.ms)}   (${changes.result.length} file listed)`,
  );

  const afterEdit = await timed(() => store.create());
  console.log(`  checkpoint after one file changed        ${fmt(afterEdit.ms)}`);

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
        storeMs: opened.ms,
        firstMs: first.ms,
        noChangeMs: noChange,
        noChangeRuns: runs,
        ruleWalkMs: walk,
        afterEditMs: afterEdit.ms,
        goalMs: GOAL_MS,
        summary: `+${fmt(noChange)} per prompt (median of ${NO_CHANGE_RUNS}; first ${fmt(first.ms)})`,
      },
      null,
      2,
    )}\n`,
  );
  await store.idle?.();
  store.dispose();
} finally {
  rmSync(root, { recursive: true, force: true });
}
