// @-mention ranking benchmark (`npm run bench`): ranks a 20,000-file workspace listing for queries of
// different shapes, as the host does on every keystroke after "@", and prints the median and worst time
// per query; then times the .gitignore rules the file index applies to such a listing when git cannot
// list the folder (built from a root and nested ignore files, then asked about every path). It prints figures; it asserts nothing.
import { performance } from 'node:perf_hooks';
import { fuzzyPathScore, rankBy } from '../src/features/mentions/chat/fuzzyRank';
import { IgnoreFileRules } from '../src/features/mentions/chat/ignoreFileRules';

const FILES = 20_000;
const RUNS = 40;
const LIMIT = 50;

const paths = Array.from({ length: FILES }, (_, i) => {
  const area = ['src', 'test', 'packages/core/src', 'packages/ui/components', 'docs'][i % 5];
  return `${area}/module${i % 211}/${['index', 'helpers', 'service', 'view', 'types'][i % 5]}${i}.ts`;
});
paths.push('test/fixtures/workspace/src/hello.ts');

console.log(`ranking ${paths.length.toLocaleString('en-US')} paths, best ${LIMIT}, ${RUNS} runs per query`);
for (const query of ['', 'h', 'hel', 'hello', 'src/hel', 'pkcoresrvc', 'zzzz']) {
  const times: number[] = [];
  let found = 0;
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    found = rankBy(paths, query, fuzzyPathScore, LIMIT).length;
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  const worst = times.at(-1) ?? 0;
  console.log(
    `  ${JSON.stringify(query).padEnd(14)} median ${median.toFixed(1).padStart(6)} ms  worst ${worst.toFixed(1).padStart(6)} ms  (${found} shown)`,
  );
}

// The file index builds the rules and filters the listing once per (re)listing, not per keystroke.
const gitignores = [
  { dir: '', content: 'node_modules\n/dist\n*.log\ncoverage/\n!keep.log\n' },
  ...Array.from({ length: 200 }, (_, i) => ({
    dir: `${['src', 'test', 'packages/core/src', 'packages/ui/components', 'docs'][i % 5]}/module${i}`,
    content: `*.gen.ts\n!index${i}.gen.ts\n/tmp/\nhelpers${i}*\n`,
  })),
];
const filterTimes: number[] = [];
let kept = 0;
for (let run = 0; run < RUNS; run++) {
  const start = performance.now();
  const rules = new IgnoreFileRules('secret.txt\n', gitignores, { ignoreCase: false });
  kept = paths.filter((file) => !rules.ignores(file)).length;
  filterTimes.push(performance.now() - start);
}
filterTimes.sort((a, b) => a - b);
console.log(
  `gitignore rules (${gitignores.length} ignore files) over ${paths.length.toLocaleString('en-US')} paths: ` +
    `median ${(filterTimes[Math.floor(filterTimes.length / 2)] ?? 0).toFixed(1)} ms  worst ${(filterTimes.at(-1) ?? 0).toFixed(1)} ms  (${kept.toLocaleString('en-US')} kept)`,
);
