/* global URL */
// `npm run bench`: every performance figure of the extension, each beside its baseline (measured in
// the same run) and its goal. Medians of BENCH_RUNS runs (default 5). Writes
// bench-results/latest.json and bench-results/frames.png (frame times while streaming). It prints
// figures; it passes or fails nothing. Expects the production build (`node esbuild.mjs --production`).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { measureActivation } from './activation.mjs';
import { longChatMemoryRows, streamMemoryRows } from './longChatRows.mjs';
import { measureWebview } from './webview.mjs';
import { terminalStreamRows } from './terminalStream.mjs';
import { pacedTailRows, tailStreamRows } from './tailStream.mjs';
import { historyOpenRows } from './historyOpen.mjs';
import { longTurnOpenRows } from './longTurnOpen.mjs';
import { shortTurnRows } from './shortTurns.mjs';
import { readingAboveRow, streamingRows } from './streamRows.mjs';
import {
  activationRows,
  bigWorkspaceRows,
  statusIdleRows,
  worktreeRows,
  formatRow,
  hostMemoryRows,
  latencyRows,
} from './rows.mjs';
import { reopenRows } from './reopenRows.mjs';
import { CHUNK_CHARS, HOST_PACING } from './workloads.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const OUT = join(ROOT, 'bench-results');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const MB = 1_000_000;
const SIZES = [0.5 * MB, 1 * MB, 2 * MB, 4 * MB];
const MAIN_SIZE = 2 * MB;
const LONG_TURNS = 2000;
const FRAME_MS = 1000 / 60;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (value) => `${value.toFixed(1)} ms`;
/** A timed stream's figures for the raw section: its main-thread CPU and its slowest frame. */
const cpuAndSlowest = (run) => ({ cpuMs: run.cpuMs, slowestFrameMs: Math.max(...run.frameMs) });
const ratio = (value) => `${value.toFixed(2)}×`;
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Runs a TypeScript bench file in its own Node process (tsx) and returns the JSON of its last line. */
function runTsBench(file, env = {}, nodeArgs = []) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', join(ROOT, file)], {
      cwd: ROOT,
      env: { ...process.env, BENCH_RUNS: String(RUNS), ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text) => (out += text));
    child.on('error', fail);
    child.on('exit', (code) =>
      code === 0
        ? done(JSON.parse(out.trim().split('\n').at(-1)))
        : fail(new Error(`${file} exited ${code}`)),
    );
  });
}

/** The host figure runs in its own Node process, so its timings see no browser next to them. */
const measureHost = () => runTsBench('bench/hostPipeline.ts');

/** A bar chart of one stream's frame times (handle + render + layout), with the 16.7 ms line. */
async function frameChart(frames, title, file) {
  const width = 1000;
  const height = 360;
  const pad = { left: 50, right: 10, top: 30, bottom: 30 };
  const top = Math.max(FRAME_MS * 1.5, ...frames);
  const x = (i) => pad.left + (i / frames.length) * (width - pad.left - pad.right);
  const y = (value) => height - pad.bottom - (value / top) * (height - pad.top - pad.bottom);
  const barWidth = Math.max(1, (width - pad.left - pad.right) / frames.length - 0.5);
  const bars = frames
    .map((value, i) => {
      const colour = value > FRAME_MS ? '#d9534f' : '#4a90d9';
      return `<rect x="${x(i).toFixed(1)}" y="${y(value).toFixed(1)}" width="${barWidth.toFixed(2)}" height="${(height - pad.bottom - y(value)).toFixed(1)}" fill="${colour}"/>`;
    })
    .join('');
  const ticks = [0, top / 2, top]
    .map((v) => `<text x="${pad.left - 6}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(0)} ms</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="${pad.left}" y="18" font-size="14">${title}</text>${bars}${ticks}
<line x1="${pad.left}" x2="${width - pad.right}" y1="${y(FRAME_MS)}" y2="${y(FRAME_MS)}" stroke="#333" stroke-dasharray="4 3"/>
<text x="${width - pad.right}" y="${y(FRAME_MS) - 4}" text-anchor="end">one frame (16.7 ms)</text>
<text x="${(width + pad.left) / 2}" y="${height - 8}" text-anchor="middle">host message (one per frame), in order</text></svg>`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ viewport: { width, height } });
    await page.setContent(`<body style="margin:0">${svg}</body>`);
    await page.screenshot({ path: file });
  } finally {
    await browser.close();
  }
}

function bundleSize(file) {
  const path = join(ROOT, file);
  return existsSync(path) ? statSync(path).size : undefined;
}

/** The checkpoint benchmark (bench/checkpoints.mjs) writes its own JSON when it has run. */
const checkpointFigure = () => readJson('checkpoints.json');

/** A JSON file another bench step wrote into bench-results/, or undefined. */
function readJson(name) {
  const path = join(OUT, name);
  if (!existsSync(path)) {
    return undefined;
  }
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

const firstLine = (error) => String(error instanceof Error ? error.message : error).split('\n')[0];
async function main() {
  mkdirSync(OUT, { recursive: true });
  const started = Date.now();
  process.stderr.write(`host: ${RUNS} runs of the bare SDK client and of the pipeline…\n`);
  const host = await measureHost();
  const web = await measureWebview({ runs: RUNS, sizes: SIZES, mainSize: MAIN_SIZE, longTurns: LONG_TURNS });

  const hostCpuMs = median(host.pipeline.map((r) => r.cpuMs));
  const bareCpuMs = median(host.bare.map((r) => r.cpuMs));
  const hostCpuRatio = hostCpuMs / bareCpuMs;
  const hostWallRatio = median(host.pipeline.map((r) => r.ms)) / median(host.bare.map((r) => r.ms));
  const messagesPerSecond = median(host.pipeline.map((r) => r.viewMessages / (r.ms / 1000)));
  const main = web.curve.get(MAIN_SIZE);
  const naiveRatio = median(web.naive.map((r) => r.scriptMs)) / median(main.map((r) => r.streamScriptMs));
  const curve = SIZES.map((size) => {
    const runs = web.curve.get(size);
    const streamMs = median(runs.map((r) => r.streamScriptMs));
    return {
      mb: size / MB,
      streamScriptMs: streamMs,
      msPerMb: streamMs / (size / MB),
      onceScriptMs: median(runs.map((r) => r.onceScriptMs)),
    };
  });
  const growth = curve.at(-1).msPerMb / curve[0].msPerMb;
  const longOpen = median(web.long.map((r) => r.openMs));
  const scrollP95 = median(web.long.map((r) => percentile(r.frames, 95)));
  const webviewJs = bundleSize('dist/webview.js');
  const extensionJs = bundleSize('dist/extension.js');
  const chatJs = bundleSize('dist/chat.js');
  // The bundles dist/chat.js loads on first use (src/lazyBundles.json), each with when it loads.
  const lazyBundles = Object.entries(JSON.parse(readFileSync('src/lazyBundles.json', 'utf8'))).map(
    ([name, { loads }]) => ({ name, when: loads, size: bundleSize(`dist/${name}.js`) }),
  );
  process.stderr.write(`activation: ${RUNS} fresh code-server runs…\n`);
  let activation;
  let activationProblem;
  try {
    activation = await measureActivation(RUNS);
  } catch (error) {
    activationProblem = firstLine(error);
  }
  process.stderr.write('latency: chunk → DOM in code-server, and the host alone…\n');
  let latency;
  let hostLatency;
  let latencyProblem;
  try {
    hostLatency = await runTsBench('bench/hostLatency.ts');
    latency = await runTsBench('bench/latency.ts');
  } catch (error) {
    latencyProblem = firstLine(error);
  }
  process.stderr.write('reopen and round trip: two code-servers…\n');
  let reopen;
  let reopenProblem;
  try {
    reopen = await runTsBench('bench/reopen.ts');
  } catch (error) {
    reopenProblem = firstLine(error);
  }
  process.stderr.write('host memory: a 2,000-turn chat, a 10 MB answer…\n');
  let hostMemory;
  let hostMemoryProblem;
  try {
    hostMemory = await runTsBench('bench/hostMemory.ts', {}, ['--expose-gc']);
  } catch (error) {
    hostMemoryProblem = firstLine(error);
  }
  const checkpoints = checkpointFigure();

  const rows = [
    [
      `host pipeline, ${host.chunks.toLocaleString('en-US')} chunks (client CPU)`,
      `${ratio(hostCpuRatio)} (${ms(hostCpuMs)} vs ${ms(bareCpuMs)}; wall ${ratio(hostWallRatio)})`,
      'bare SDK client, same agent',
      '≤ 1.15×',
      hostCpuRatio <= 1.15,
      `ours adds ${(((hostCpuMs - bareCpuMs) * 1000) / host.chunks).toFixed(1)} µs of CPU a chunk to the SDK's own (its zod validation and the garbage it makes dominate both clients: BENCH_HOST_ONLY=bare|pipeline node --cpu-prof --import tsx bench/hostPipeline.ts)`,
    ],
    [
      'view messages per second of stream',
      `${messagesPerSecond.toFixed(1)} /s`,
      '—',
      '≤ 60',
      messagesPerSecond <= 60,
    ],
    ...streamingRows(main, { chars: MAIN_SIZE, chunks: MAIN_SIZE / CHUNK_CHARS, bare: web.bare }),
    readingAboveRow(web.readingAbove, { chars: MAIN_SIZE }),
    ...terminalStreamRows(web.terminal),
    ...tailStreamRows(web.tail),
    ...pacedTailRows(web.pacedTail),
    [
      'cost growth 0.5 → 4 MB (ms per MB)',
      `${ratio(growth)} (${curve.map((c) => `${c.mb} MB ${ms(c.streamScriptMs)}`).join(', ')})`,
      'linear = 1×',
      'linear',
      growth <= 1.5,
    ],
    [
      'same stream rendered naively (whole message per message)',
      `${ratio(naiveRatio)} slower than ours (${ms(median(web.naive.map((r) => r.scriptMs)))}, ${web.naive[0].sampled} of ${web.naive[0].messages} re-renders timed, extrapolated)`,
      'ours',
      '≥ 10×',
      naiveRatio >= 10,
    ],
    ...latencyRows(latency, hostLatency, latencyProblem),
    ...reopenRows(reopen, reopenProblem),
    ...hostMemoryRows(hostMemory, hostMemoryProblem),
    [
      `open a chat of ${LONG_TURNS.toLocaleString('en-US')} turns (${web.long[0].entries.toLocaleString('en-US')} entries)`,
      `${ms(longOpen)} first paint; scrolling p95 frame ${ms(scrollP95)}`,
      'first paint',
      '≤ 150 ms, 60 fps',
      longOpen <= 150 && scrollP95 <= FRAME_MS * 1.2,
    ],
    ...historyOpenRows(web.history, web.long),
    ...longTurnOpenRows(web.longTurn),
    ...longChatMemoryRows(web.long, LONG_TURNS),
    ...shortTurnRows(web.shortTurns),
    ...streamMemoryRows(web.streamHeap),
    checkpoints
      ? [
          `no-change checkpoint of a ${(checkpoints.files ?? 20_000).toLocaleString('en-US')}-file workspace`,
          checkpoints.summary ?? JSON.stringify(checkpoints).slice(0, 80),
          'prompt send without checkpoint',
          '≤ +300 ms',
          typeof checkpoints.noChangeMs === 'number' ? checkpoints.noChangeMs <= 300 : undefined,
        ]
      : [
          'no-change checkpoint of a 20,000-file workspace',
          'n/a',
          'prompt send without checkpoint',
          '≤ +300 ms',
          undefined,
          'printed by bench/checkpoints.mjs when it is part of the bench script',
        ],
    ...bigWorkspaceRows(readJson('bigworkspace.json')),
    ...worktreeRows(readJson('worktrees.json')),
    ...statusIdleRows(readJson('statusidle.json')),
    ...activationRows(activation, activationProblem),
    [
      'dist/webview.js (minified)',
      webviewJs === undefined ? 'n/a' : kib(webviewJs),
      '—',
      '≤ 250 KiB',
      webviewJs === undefined ? undefined : webviewJs <= 250 * 1024,
    ],
    [
      'dist/extension.js (minified; what activation loads)',
      extensionJs === undefined ? 'n/a' : kib(extensionJs),
      '—',
      '≤ 300 KiB',
      extensionJs === undefined ? undefined : extensionJs <= 300 * 1024,
    ],
    [
      'dist/chat.js (minified; loaded when the view opens or a command runs)',
      chatJs === undefined ? 'n/a' : kib(chatJs),
      '—',
      '≤ 250 KiB',
      chatJs === undefined ? undefined : chatJs <= 250 * 1024,
      'the agent connection (the ACP SDK and the full zod it validates with) is dist/connection.js, and the chat’s own schemas use zod/mini; checkpoints, the doctor, MCP, mentions and the registry are split off too',
    ],
    ...lazyBundles.map(({ name, when, size }) => [
      `dist/${name}.js (minified; loaded ${when})`,
      size === undefined ? 'n/a' : kib(size),
      '—',
      '—',
      undefined,
    ]),
  ];

  console.log(`ACP Agents benchmark — medians of ${RUNS} runs (${new Date().toISOString()})`);
  for (const row of rows) {
    console.log(formatRow(row));
  }

  // The frame chart of the median 2 MB run.
  const byCost = [...main].sort((a, b) => a.streamScriptMs - b.streamScriptMs);
  const chartRun = byCost[Math.floor(byCost.length / 2)];
  await frameChart(
    chartRun.frameMs,
    `Frame times streaming ${MAIN_SIZE / MB} MB (${chartRun.messages} host messages, ${HOST_PACING ? 'as the host paces a long answer' : 'BENCH_HOST_PACING=0'})`,
    join(OUT, 'frames.png'),
  );
  const json = {
    date: new Date().toISOString(),
    runs: RUNS,
    seconds: (Date.now() - started) / 1000,
    figures: rows.map(([figure, value, baseline, goal, met, note]) => ({
      figure,
      value,
      baseline,
      goal,
      met,
      note,
    })),
    raw: {
      host,
      curve,
      streaming: main.map(({ frameMs, ...rest }) => ({ ...rest, slowestFrameMs: Math.max(...frameMs) })),
      naive: web.naive,
      // Each run's CPU and slowest frame: the bare view's layouts, the stream read from above and followed.
      terminalStream: web.terminal,
      tailStream: web.tail,
      pacedTail: web.pacedTail,
      bareStream: web.bare.map((run) => ({
        chunked: cpuAndSlowest(run.chunked),
        flat: cpuAndSlowest(run.flat),
      })),
      readingAbove: web.readingAbove.map((run) => ({
        readingAbove: cpuAndSlowest(run.readingAbove),
        followed: cpuAndSlowest(run.followed),
      })),
      longChat: web.long.map(({ frames, ...rest }) => ({ ...rest, scrollP95Ms: percentile(frames, 95) })),
      bundles: {
        webviewJs,
        extensionJs,
        chatJs,
        ...Object.fromEntries(lazyBundles.map((b) => [b.name, b.size])),
      },
      activation,
      latency,
      hostLatency,
      reopen,
      hostMemory,
    },
  };
  writeFileSync(join(OUT, 'latest.json'), JSON.stringify(json, null, 2) + '\n');
  console.log(`wrote bench-results/latest.json and bench-results/frames.png (${json.seconds.toFixed(0)} s)`);
}

await main();
