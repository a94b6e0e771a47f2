// `npm run bench`'s steps after the production build, in order, each in its own Node process.
// BENCH_ONLY=bigworkspace runs the big-workspace bench alone (minutes at its default 200,000 files;
// BENCH_FILES sets the size): the default run only prints its last figures (bench/run.mjs).
// BENCH_ONLY=reopen runs the reopen and round-trip bench alone (two code-servers, about a minute), and
// BENCH_ONLY=hostmemory the host's memory bench (a 2,000-turn chat, a 10 MB answer); BENCH_ONLY=long and
// BENCH_ONLY=stream the webview's long-chat or streaming figures alone, BENCH_ONLY=turns its short turns' (bench/webview.mjs);
// BENCH_ONLY=statusidle the idle cost of ten running chats' status (bench/statusIdle.ts, about 25 s).
import { spawnSync } from 'node:child_process';

const only = {
  bigworkspace: [['--expose-gc', 'bench/bigWorkspace.mjs']],
  reopen: [['--import', 'tsx', 'bench/reopen.ts']],
  hostmemory: [['--expose-gc', '--import', 'tsx', 'bench/hostMemory.ts']],
  long: [['bench/webview.mjs']],
  stream: [['bench/webview.mjs']],
  turns: [['bench/webview.mjs']],
  statusidle: [['--import', 'tsx', 'bench/statusIdle.ts']],
};
const steps = only[process.env.BENCH_ONLY ?? ''] ?? [
  ['bench/checkpoints.mjs'],
  // Before run.mjs, whose table shows its figures.
  ['--import', 'tsx', 'bench/statusIdle.ts'],
  ['bench/run.mjs'],
  ['--import', 'tsx', 'bench/mentionRanking.ts'],
  ['--import', 'tsx', 'bench/hunkDecorations.ts'],
  ['--expose-gc', '--import', 'tsx', 'bench/storms.ts'],
];
for (const args of steps) {
  const { status, signal } = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (status !== 0) {
    console.error(`${args.at(-1)} ${signal ? `was killed (${signal})` : `exited ${status}`}`);
    process.exit(status ?? 1);
  }
}
