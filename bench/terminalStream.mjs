// A long terminal output streamed into a tool card, each update one host message and one frame: 1 MB in 400
// updates of 30 lines (a test run, an install), a progress bar redrawn 10,000 times on one line (\r, no
// newline; a download's), and 1 MB on one line (a minified file, a JSON answer). The page's main-thread CPU, and an update's frame at the start against the same at the
// end: an update should cost its new part, not the output before it.
/* global window, document */
import { tsImport } from 'tsx/esm/api';
import { freshPage, stage, withCpu } from './webviewPage.mjs';
import { frameTotal, median } from './webviewStream.mjs';

const { RUNNING_COMMAND, snapshot, terminalOutput, turn } = await tsImport(
  '../test/webview/support/builders.ts',
  import.meta.url,
);

export const TERMINAL_UPDATES = 400;
const LINES_PER_UPDATE = 30;
const REDRAWS_PER_UPDATE = 25;
/** Updates whose frames are averaged at the start and at the end of the output. */
const SPAN = 50;

/** Lines of 85 characters (they wrap in the sidebar, as a build's do); shown as sent. */
function linesWorkload() {
  let shown = '';
  const updates = Array.from({ length: TERMINAL_UPDATES }, (_, update) => {
    const lines = Array.from({ length: LINES_PER_UPDATE }, (_, i) => {
      const line = update * LINES_PER_UPDATE + i;
      return `${`line ${line}: compiling src/module${i}/file${update}.ts … ok (${line % 97} ms)`.padEnd(84, '.')}\n`;
    });
    shown += lines.join('');
    return terminalOutput({ output: lines.join(''), append: true });
  });
  return { name: 'lines', updates, shown, each: `${LINES_PER_UPDATE} lines appended` };
}

/** A coloured progress bar redrawn with \r; only its last state shows. */
function progressWorkload() {
  const total = TERMINAL_UPDATES * REDRAWS_PER_UPDATE;
  const bar = (n) => `${'='.repeat(Math.floor((40 * n) / total)).padEnd(40)}`;
  const state = (n) => `${(n / (total / 100)).toFixed(1)}% ${(n % 13) + 1}.2 MB/s eta 0:0${n % 10}:0${n % 7}`;
  const updates = Array.from({ length: TERMINAL_UPDATES }, (_, update) => {
    let output = '';
    for (let i = 0; i < REDRAWS_PER_UPDATE; i++) {
      const n = update * REDRAWS_PER_UPDATE + i + 1;
      output += `\r\u001b[32m${bar(n)}\u001b[0m ${state(n)}`;
    }
    return terminalOutput({ output, append: true });
  });
  const shown = `${bar(total)} ${state(total)}`;
  return { name: 'progress', updates, shown, each: `${REDRAWS_PER_UPDATE} redraws of one line` };
}

/** One line of JSON-like text, 2,500 characters an update, no newline. */
function longLineWorkload() {
  const updates = Array.from({ length: TERMINAL_UPDATES }, (_, update) =>
    terminalOutput({
      output: `{"key${update}":"${'v'.repeat(2_488 - String(update).length)}"},`,
      append: true,
    }),
  );
  const shown = updates.map((update) => update.terminal.output).join('');
  return { name: 'one line', updates, shown, each: '2,500 characters added to one line' };
}

/** One run of a workload: the CPU, the raw output's length, and the mean frame (script + layout) of the first and last SPAN updates. */
async function workloadOnce(browser, origin, { updates, shown }) {
  const { page, problems } = await freshPage(browser, origin);
  try {
    await page.evaluate(
      (message) => window.__step(message),
      snapshot({ entries: [RUNNING_COMMAND], turns: [turn('t1')] }),
    );
    await stage(page, updates);
    const run = await withCpu(() => page.evaluate(() => window.__stepStaged()));
    const text = await page.evaluate(() => document.querySelector('.terminal-output')?.textContent ?? '');
    if (text !== shown) {
      throw new Error(`the terminal shows ${text.length} characters, not the ${shown.length} expected`);
    }
    if (problems.length > 0) {
      throw new Error(`page problems: ${problems.join(' | ')}`);
    }
    const frame = (frames) => frames.reduce((sum, f) => sum + frameTotal(f), 0) / frames.length;
    return {
      cpuMs: run.cpuMs,
      chars: updates.reduce((sum, update) => sum + update.terminal.output.length, 0),
      firstMs: frame(run.result.slice(0, SPAN)),
      lastMs: frame(run.result.slice(-SPAN)),
    };
  } finally {
    await page.close();
  }
}

const WORKLOADS = [linesWorkload(), progressWorkload(), longLineWorkload()];

/** One run of each workload, by name. */
export async function terminalStreamOnce(browser, origin) {
  const run = {};
  for (const workload of WORKLOADS) {
    run[workload.name] = await workloadOnce(browser, origin, workload);
  }
  return run;
}

/** A row per workload for terminalStreamOnce's runs (medians). */
export function terminalStreamRows(runs) {
  return WORKLOADS.map(({ name, each }) => {
    const of = runs.map((run) => run[name]);
    const first = median(of.map((r) => r.firstMs));
    const last = median(of.map((r) => r.lastMs));
    const growth = last / first;
    const mb = (of[0].chars / 1e6).toFixed(2);
    return [
      `webview terminal ${name}, ${mb} MB in ${TERMINAL_UPDATES} updates: an update's frame at the end`,
      `${last.toFixed(1)} ms (${growth.toFixed(2)}× the first ${SPAN}'s); the page's main-thread CPU ${median(of.map((r) => r.cpuMs)).toFixed(0)} ms`,
      `the first ${SPAN} updates' frame: ${first.toFixed(1)} ms`,
      '≤ 1.5× (an update costs its new part)',
      growth <= 1.5,
      `each update ${each}; frames are script + layout, as the stream's`,
    ];
  });
}
