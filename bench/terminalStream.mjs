// A long terminal output streamed into a tool card: 1 MB in 400 appended updates of 30 lines (a test run, an
// install), each update one host message and one frame. The page's main-thread CPU, and an update's frame at the
// start against the same at the end: an update should cost its new lines, not the output before them.
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
/** Updates whose frames are averaged at the start and at the end of the output. */
const SPAN = 50;

/** The stream's updates: lines of 85 characters (they wrap in the sidebar, as a build's do). */
function terminalUpdates() {
  return Array.from({ length: TERMINAL_UPDATES }, (_, update) => {
    const lines = Array.from({ length: LINES_PER_UPDATE }, (_, i) => {
      const line = update * LINES_PER_UPDATE + i;
      return `${`line ${line}: compiling src/module${i}/file${update}.ts … ok (${line % 97} ms)`.padEnd(84, '.')}\n`;
    });
    return terminalOutput({ output: lines.join(''), append: true });
  });
}

/** One run: the CPU, the output's length, and the mean frame (script + layout) of the first and last SPAN updates. */
export async function terminalStreamOnce(browser, origin) {
  const { page, problems } = await freshPage(browser, origin);
  try {
    await page.evaluate(
      (message) => window.__step(message),
      snapshot({ entries: [RUNNING_COMMAND], turns: [turn('t1')] }),
    );
    const updates = terminalUpdates();
    await stage(page, updates);
    const run = await withCpu(() => page.evaluate(() => window.__stepStaged()));
    const shown = await page.evaluate(
      () => document.querySelector('.terminal-output')?.textContent?.length ?? 0,
    );
    const expected = updates.reduce((sum, update) => sum + update.terminal.output.length, 0);
    if (shown !== expected) {
      throw new Error(`the terminal shows ${shown} characters of ${expected}`);
    }
    if (problems.length > 0) {
      throw new Error(`page problems: ${problems.join(' | ')}`);
    }
    const frame = (frames) => frames.reduce((sum, f) => sum + frameTotal(f), 0) / frames.length;
    return {
      cpuMs: run.cpuMs,
      chars: shown,
      firstMs: frame(run.result.slice(0, SPAN)),
      lastMs: frame(run.result.slice(-SPAN)),
    };
  } finally {
    await page.close();
  }
}

/** The row for terminalStreamOnce's runs (medians). */
export function terminalStreamRow(runs) {
  const first = median(runs.map((r) => r.firstMs));
  const last = median(runs.map((r) => r.lastMs));
  const growth = last / first;
  const mb = (runs[0].chars / 1e6).toFixed(2);
  return [
    `webview terminal output, ${mb} MB in ${TERMINAL_UPDATES} updates: an update's frame at the end`,
    `${last.toFixed(1)} ms (${growth.toFixed(2)}× the first ${SPAN}'s); the page's main-thread CPU ${median(runs.map((r) => r.cpuMs)).toFixed(0)} ms`,
    `the first ${SPAN} updates' frame: ${first.toFixed(1)} ms`,
    '≤ 1.5× (an update costs its new lines)',
    growth <= 1.5,
    `each update ${LINES_PER_UPDATE} lines appended; frames are script + layout, as the stream's`,
  ];
}
