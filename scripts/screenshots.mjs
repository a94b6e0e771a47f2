/**
 * `npm run screenshots`: remakes the README's pictures (docs/*.png) by running the e2e suites that take
 * them, with ACP_DOCS_SCREENSHOTS=1 so `docsScreenshot` (test/e2e/support/chat.ts) writes into docs/.
 * Every other run of those suites writes the same pictures to the git-ignored test-results/docs/, so
 * `npm test` and CI leave the work tree clean. Expects the build and the tools (the npm script runs both).
 *
 * Extra arguments go to mocha (`npm run screenshots -- --grep tour`).
 *
 * The suites are found, not listed: every e2e file that calls docsScreenshot(…). The webview screenshot
 * suite is not run: it writes only to test-results/.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from './tools.mjs';

const e2eDir = join(repoRoot, 'test', 'e2e');
const suites = readdirSync(e2eDir)
  .filter((name) => name.endsWith('.e2e.test.ts'))
  .filter((name) => readFileSync(join(e2eDir, name), 'utf8').includes('docsScreenshot('))
  .sort()
  .map((name) => relative(repoRoot, join(e2eDir, name)));
if (suites.length === 0) {
  console.error('screenshots: no e2e suite calls docsScreenshot(); nothing to do');
  process.exit(1);
}
console.log(`screenshots: ${suites.join(', ')}`);

// The e2e config's options without its `spec` glob: mocha adds files named on the command line to the
// config's spec instead of replacing it.
const config = JSON.parse(readFileSync(join(e2eDir, '.mocharc.json'), 'utf8'));
const options = Object.entries(config)
  .filter(([key]) => key !== 'spec')
  .flatMap(([key, value]) =>
    value === true ? [`--${key}`] : [value].flat().flatMap((item) => [`--${key}`, String(item)]),
  );
const mocha = join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js');
const child = spawn(
  process.execPath,
  [mocha, '--no-config', ...options, ...process.argv.slice(2), ...suites],
  {
    cwd: repoRoot,
    stdio: 'inherit',
    env: { ...process.env, ACP_DOCS_SCREENSHOTS: '1' },
  },
);
child.on('exit', (code, signal) => {
  if (signal) {
    console.error(`screenshots: mocha ended by ${signal}`);
    process.exit(1);
  }
  process.exit(code ?? 1);
});
