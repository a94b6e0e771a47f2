// Long blocks that stay the stream's tail (no blank line lets the block splitter finish them): a tight list, a
// loose one, a list under one bullet, a paragraph of lines with markup (a log shown as prose), the same quoted,
// one line with no break and a table, 500 KB each, streamed as the host paces an answer. The page's main-thread
// CPU and the markdown worker's, and a message's frame at the start against the same at the end: a message
// should cost its new items, not the block before it.
/* global window */
import { freshPage, stage, withCpu } from './webviewPage.mjs';
import { frameTotal, median } from './webviewStream.mjs';
import { messageChars, streamingSnapshot, streamMessages } from './workloads.mjs';

const TAIL_CHARS = 500_000;
/** Messages whose frames are averaged at the start and at the end of the stream. */
const SPAN = 8;

/** Lines of markdown after `head`, to about TAIL_CHARS characters, joined by single newlines. */
function lines(head, line) {
  const all = [...head];
  for (let i = 0, length = 0; length < TAIL_CHARS; i++) {
    all.push(line(i));
    length += all.at(-1).length + 1;
  }
  return all.join('\n');
}

const WORKLOADS = [
  { name: 'tight list', text: () => lines([], (i) => `- item ${i}: check \`file${i}.ts\` and **fix** it`) },
  {
    // A blank line between items: the splitter keeps the list whole (an item after it may make the list loose).
    name: 'loose list',
    text: () => lines([], (i) => `${i + 1}. step ${i}: check \`file${i}.ts\` and **fix** it\n`),
  },
  {
    // One bullet holding a long list (files changed under a heading item): grown by the nested list's items.
    name: 'list in one item',
    text: () => lines(['- Files changed:'], (i) => `  - item ${i}: check \`file${i}.ts\` and **fix** it`),
  },
  { name: 'paragraph of lines', text: () => lines([], (i) => `Line ${i} says *this* and \`that\`.`) },
  { name: 'quote of lines', text: () => lines([], (i) => `> Line ${i} says *this* and \`that\`.`) },
  {
    // No line break at all (a log or data shown as one line): shown by runs of its words.
    name: 'line with no break',
    text: () => lines([], (i) => `Word ${i} says *this* and \`that\`.`).replaceAll('\n', ' '),
  },
  {
    name: 'table',
    text: () =>
      lines(
        ['| file | change | lines |', '| --- | --- | ---: |'],
        (i) => `| src/mod/file${i}.ts | renamed \`old${i}\` | ${i} |`,
      ),
  },
];

/** One run: each workload streamed on a fresh page. */
export async function tailStreamOnce(browser, origin) {
  const run = {};
  for (const { name, text } of WORKLOADS) {
    run[name] = await streamTail(browser, origin, text());
  }
  return run;
}

async function streamTail(browser, origin, text) {
  const { page, problems } = await freshPage(browser, origin);
  try {
    await page.evaluate((start) => window.__step(start), streamingSnapshot());
    const messages = streamMessages(text);
    // The first messages are smaller: the host paces a long answer's later ones (three frames' chunks each).
    const paced = messages.findIndex((message) => messageChars(message) > messageChars(messages[0]));
    await stage(page, messages);
    const {
      result: frames,
      cpuMs,
      workerCpuMs,
    } = await withCpu(() => page.evaluate(() => window.__stepStaged()));
    if (problems.length > 0) {
      throw new Error(`page problems: ${problems.join(' | ')}`);
    }
    const ms = frames.map(frameTotal);
    const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
    return {
      chars: text.length,
      messages: frames.length,
      cpuMs,
      workerCpuMs,
      firstMs: mean(ms.slice(paced, paced + SPAN)),
      // The last message may be short: the ones before it.
      lastMs: mean(ms.slice(-SPAN - 1, -1)),
      slowestMs: Math.max(...ms),
    };
  } finally {
    await page.close();
  }
}

/** The rows: a message's frame at the end against the start, per workload. */
export function tailStreamRows(runs) {
  return WORKLOADS.map(({ name }) => {
    const of = runs.map((run) => run[name]);
    const first = median(of.map((r) => r.firstMs));
    const last = median(of.map((r) => r.lastMs));
    const growth = last / first;
    const kb = Math.round(of[0].chars / 1000);
    return [
      `webview streaming, a ${name} of ${kb} KB that stays the tail (${of[0].messages} messages): a message's frame at the end`,
      `${last.toFixed(1)} ms (${growth.toFixed(2)}× the first ${SPAN} paced messages'); slowest ${median(of.map((r) => r.slowestMs)).toFixed(1)} ms; the page's main-thread CPU ${median(of.map((r) => r.cpuMs)).toFixed(0)} ms, the markdown worker's ${median(of.map((r) => r.workerCpuMs)).toFixed(0)} ms`,
      `the first ${SPAN} messages of the host's pace (each as long as the last): ${first.toFixed(1)} ms`,
      '≤ 1.5× (a message costs its new items)',
      growth <= 1.5,
      `the tail shown by pieces (webview/markdown/tailPieces.ts): items, rows or lines kept, new ones added; frames are script + layout, as the stream's; the worker parses the whole tail again for each message`,
    ];
  });
}
