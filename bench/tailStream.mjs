// Long blocks that stay the stream's tail (no blank line lets the block splitter finish them): a tight list, a
// loose one, a list under one bullet, a paragraph of lines with markup (a log shown as prose), the same quoted,
// one line with no break and a table, 500 KB each, streamed as the host paces an answer. The page's main-thread
// CPU and the markdown worker's, and a message's frame at the start against the same at the end: a message
// should cost its new items, not the block before it.
/* global window, document, performance, requestAnimationFrame, MutationObserver, MessageEvent, Worker, URL, Blob */
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

/** A fast model's pace, sustained: 400 characters a message, a message every 50 ms (8 KB a second). */
const PACED_CHARS = 400;
const PACED_EVERY_MS = 50;
/** A long block of that answer: about 80 KB (a table of ≈ 2,000 rows, a list of ≈ 1,800 items). */
const PACED_BLOCK_CHARS = 80_000;
/** The workloads streamed at that pace as well. */
const PACED = ['tight list', 'table'];

/**
 * One run: the tight list and the table, ≈ 80 KB each, streamed at a fast model's pace, the page not waited for —
 * its messages are posted by a worker on a clock of its own and wait in the page's queue while it is busy, as
 * the host's do — then the turn's end. What the page's main thread and the workers (the markdown worker, and the
 * posting one's few ms) spent, how often the answer changed, its longest wait between changes, and when it was
 * whole after the turn's end.
 */
export async function pacedTailOnce(browser, origin) {
  const run = {};
  for (const name of PACED) {
    const text = WORKLOADS.find((workload) => workload.name === name)
      .text()
      .slice(0, PACED_BLOCK_CHARS);
    run[name] = await streamPaced(browser, origin, text.slice(0, text.lastIndexOf('\n')));
  }
  return run;
}

async function streamPaced(browser, origin, text) {
  const { page, problems } = await freshPage(browser, origin);
  try {
    await page.evaluate((start) => window.__step(start), streamingSnapshot());
    const [first] = streamMessages('x');
    const messages = [];
    for (let at = 0; at < text.length; at += PACED_CHARS) {
      messages.push({ ...first, events: [{ ...first.events[0], text: text.slice(at, at + PACED_CHARS) }] });
    }
    const turn = { id: 't1', status: 'completed', stopReason: 'end_turn', startedAt: 0, endedAt: 1 };
    messages.push({ ...first, events: [{ type: 'turn_ended', turn }] });
    await stage(page, messages);
    const { result, cpuMs, workerCpuMs } = await withCpu(() => page.evaluate(postPaced, PACED_EVERY_MS));
    if (problems.length > 0) {
      throw new Error(`page problems: ${problems.join(' | ')}`);
    }
    return { chars: text.length, cpuMs, workerCpuMs, ...result };
  } finally {
    await page.close();
  }
}

/** In the page: posts the staged messages from a worker every `every` ms and watches the answer change. */
async function postPaced(every) {
  const messages = window.__takeStaged();
  const answer = document.querySelector('[data-entry-id="a1"] .markdown');
  const changes = [];
  const observer = new MutationObserver(() => changes.push(performance.now()));
  observer.observe(answer, { childList: true, subtree: true, characterData: true });
  const source = `onmessage = (event) => {
    for (let n = 0; n < event.data; n++) {
      setTimeout(() => postMessage(n), ${every} * n);
    }
  };`;
  const poster = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
  const started = performance.now();
  const ended = await new Promise((done) => {
    poster.onmessage = (event) => {
      window.dispatchEvent(new MessageEvent('message', { data: messages[event.data] }));
      if (event.data === messages.length - 1) {
        done(performance.now());
      }
    };
    poster.postMessage(messages.length);
  });
  poster.terminate();
  await new Promise((done) => requestAnimationFrame(done));
  while (window.__markdown.busy) {
    await new Promise((done) => window.addEventListener('acp-markdown-settled', done, { once: true }));
  }
  await new Promise((done) => requestAnimationFrame(done));
  observer.disconnect();
  const gaps = changes.map((at, index) => at - (index === 0 ? started : changes[index - 1]));
  return {
    messages: messages.length - 1,
    streamMs: ended - started,
    changes: changes.length,
    longestGapMs: Math.max(...gaps),
    wholeAfterMs: Math.max(0, changes.at(-1) - ended),
  };
}

/** The rows: the page's share of the stream's time, beside how often the answer changed. */
export function pacedTailRows(runs) {
  return PACED.map((name) => {
    const of = runs.map((run) => run[name]);
    const figure = (key) => median(of.map((r) => r[key]));
    const share = figure('cpuMs') / figure('streamMs');
    const kb = Math.round(of[0].chars / 1000);
    return [
      `webview streaming, a ${name} of ${kb} KB that stays the tail, at a fast model's pace (${of[0].messages} messages of ${PACED_CHARS} characters, the page not waited for): the page's main thread`,
      `${(share * 100).toFixed(0)}% of the stream's time (CPU ${figure('cpuMs').toFixed(0)} ms; the workers' ${figure('workerCpuMs').toFixed(0)} ms); the answer changed ${figure('changes').toFixed(0)} times, at most ${figure('longestGapMs').toFixed(0)} ms apart, whole ${figure('wholeAfterMs').toFixed(0)} ms after the turn's end`,
      `the stream's time: ${figure('streamMs').toFixed(0)} ms (a message every ${PACED_EVERY_MS} ms, then the turn's end)`,
      '≤ 50% (the window sharing the thread stays usable)',
      share <= 0.5,
      'the markdown worker rests after a long plan or a long frame of the page (webview/markdown/planPacing.ts); each change of a long table or list is laid out whole by Chromium',
    ];
  });
}
