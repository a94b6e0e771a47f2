// @-mention ranking benchmark (`npm run bench`): ranks a 20,000-file workspace listing for queries of
// different shapes, as the host does on every keystroke after "@", and prints the median and worst time
// per query. It prints figures; it asserts nothing.
import { performance } from 'node:perf_hooks';
import { fuzzyPathScore, rankBy } from '../src/chat/mentions/fuzzyRank';

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
