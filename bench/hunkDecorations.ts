// Hunk review benchmark (`npm run bench`): a 5,000-line file whose turn left 200 hunks (changed, added and
// removed lines), split into hunks and turned into the editor's decoration ranges — what happens each time
// a changed file is shown or typed in. Prints the median and worst time beside the 50 ms goal; asserts nothing.
import { performance } from 'node:perf_hooks';
import { hunkViews } from '../src/features/hunkReview/core/hunkRanges';
import { splitHunks } from '../src/features/hunkReview/core/hunks';

const LINES = 5_000;
const HUNKS = 200;
const RUNS = 30;
const GOAL_MS = 50;

const before = Array.from({ length: LINES }, (_, i) => `  const value${i} = compute(${i}, "line ${i}");\r\n`);
const after = [...before];
// Every 25th line: changed, with an added line after every other one and a removed one after every third.
for (let hunk = HUNKS - 1; hunk >= 0; hunk--) {
  const at = hunk * (LINES / HUNKS) + 3;
  after[at] = `  const value${at} = computeAgain(${at});\r\n`;
  if (hunk % 2 === 0) {
    after.splice(at + 1, 0, `  log(${at});\r\n`);
  }
  if (hunk % 3 === 0) {
    after.splice(at + 2, 1);
  }
}
const beforeBytes = Buffer.from(before.join(''), 'latin1');
const afterBytes = Buffer.from(after.join(''), 'latin1');

const times: number[] = [];
let found = 0;
for (let run = 0; run < RUNS; run++) {
  const start = performance.now();
  const versions = splitHunks(beforeBytes, afterBytes);
  found = 'refused' in versions ? -1 : hunkViews(versions).length;
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)] ?? 0;
console.log(
  `hunk decorations, ${LINES.toLocaleString('en-US')}-line file, ${found} hunks: median ${median.toFixed(1)} ms  worst ${(times.at(-1) ?? 0).toFixed(1)} ms  (goal < ${GOAL_MS} ms)`,
);
