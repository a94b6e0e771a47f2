/**
 * `npm run screenshots`: remakes the README's pictures (docs/*.png) by running the suites that take them,
 * with ACP_DOCS_SCREENSHOTS=1: the e2e suites whose `docsScreenshot` (test/e2e/support/chat.ts) then writes
 * into docs/, and the webview suites whose `saveForDocs` (test/webview/support/docs.ts) copies a picture
 * there. Every other run of those suites writes only to the git-ignored test-results/, so `npm test` and CI
 * leave the work tree clean. Expects the build and the tools (the npm script runs both).
 *
 * The suites are found, not listed: every file that calls one of those two functions. Extra arguments go
 * to mocha (`npm run screenshots -- --grep tour`).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from './tools.mjs';

/**
 * The suites under `dir` whose source contains `marker`, run with that folder's mocha config (which leaves
 * out its whole-suite spec when test files are named, test/support/mochaSuite.cjs).
 */
function suites(dir, suffix, marker) {
  const folder = join(repoRoot, dir);
  const files = readdirSync(folder)
    .filter((name) => name.endsWith(suffix))
    .filter((name) => readFileSync(join(folder, name), 'utf8').includes(marker))
    .sort()
    .map((name) => relative(repoRoot, join(folder, name)));
  return { files, options: ['--config', relative(repoRoot, join(folder, '.mocharc.cjs'))] };
}

const runs = [
  // README pictures of the real VS Code window.
  suites(join('test', 'e2e'), '.e2e.test.ts', 'docsScreenshot('),
  // README pictures of the webview alone (headless Chromium).
  suites(join('test', 'webview'), '.test.ts', 'saveForDocs('),
].filter((run) => run.files.length > 0);
if (runs.length === 0) {
  console.error('screenshots: no suite takes README pictures; nothing to do');
  process.exit(1);
}

const mocha = join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js');
let failed = false;
for (const { files, options } of runs) {
  console.log(`screenshots: ${files.join(', ')}`);
  const code = await new Promise((resolveRun) => {
    const child = spawn(process.execPath, [mocha, ...options, ...process.argv.slice(2), ...files], {
      cwd: repoRoot,
      stdio: 'inherit',
      env: { ...process.env, ACP_DOCS_SCREENSHOTS: '1' },
    });
    child.on('exit', (exitCode, signal) => {
      if (signal) {
        console.error(`screenshots: mocha ended by ${signal}`);
      }
      resolveRun(exitCode ?? 1);
    });
  });
  failed ||= code !== 0;
}
process.exit(failed ? 1 : 0);
