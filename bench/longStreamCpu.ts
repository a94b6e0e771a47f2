// A probe (issue 34), not part of `npm run bench`: what a long answer streamed in the real VS Code costs the
// window's renderer main thread — the workbench's and the chat page's, which code-server runs on one thread (it
// serves webviews from the workbench's site) — as a Chromium trace's thread time (waits for a core do not count),
// from Enter to the turn completed, by kind of work. The demo agent streams 1 MB (4,000 chunks of 250
// characters, 1 ms apart, in 200 messages); the host messages the page received are counted beside it.
// `node esbuild.mjs --production && node --import tsx bench/longStreamCpu.ts`; to compare two builds, run it
// in a worktree of each, alternately (docs/performance.md).
//
//   BENCH_RUNS (default 3)  BENCH_STREAM_PROMPT (default "stream 4000 messages 200 delay 1 size 250")
import { loadavg } from 'node:os';
import type { Frame } from 'playwright-core';
import { openChat, sendPrompt, waitForTurnStatus } from '../test/e2e/support/chat';
import { startWorkbench } from '../test/e2e/support/workbench';
import { traced } from './roundTripCpu';
import { formatTimes, onThreads, selfTimes, threads, totalTime } from './traceTimes.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PROMPT = process.env.BENCH_STREAM_PROMPT ?? 'stream 4000 messages 200 delay 1 size 250';
const STREAM_TIMEOUT_MS = 120_000;

/** Streams PROMPT's answer; the wall time from Enter to the turn completed and the host messages meanwhile. */
async function streamOnce(chat: Frame): Promise<{ wallMs: number; messages: number }> {
  await chat.evaluate(() => {
    const counted = window as unknown as { hostMessages?: number };
    if (counted.hostMessages === undefined) {
      window.addEventListener('message', () => (counted.hostMessages = (counted.hostMessages ?? 0) + 1));
    }
    counted.hostMessages = 0;
  });
  const started = Date.now();
  const turn = await sendPrompt(chat, PROMPT);
  await waitForTurnStatus(chat, turn, 'completed', { timeout: STREAM_TIMEOUT_MS });
  const wallMs = Date.now() - started;
  const messages = await chat.evaluate(() => (window as unknown as { hostMessages: number }).hostMessages);
  return { wallMs, messages };
}

async function main(): Promise<void> {
  const workbench = await startWorkbench({});
  try {
    const { page } = workbench;
    const chat = await openChat(page);
    const hello = await sendPrompt(chat, 'hello');
    await waitForTurnStatus(chat, hello, 'completed', { timeout: 60_000 });
    for (let run = 1; run <= RUNS; run++) {
      let stream = { wallMs: 0, messages: 0 };
      const events = await traced(page, async () => {
        stream = await streamOnce(chat);
      });
      const times = selfTimes(onThreads(events, threads(events).main));
      process.stdout.write(
        `run ${run}: the window's main thread ${totalTime(times).toFixed(0)} ms over ${stream.wallMs} ms, ` +
          `${stream.messages} host messages, load ${(loadavg()[0] ?? 0).toFixed(1)}\n  ${formatTimes(times)}\n`,
      );
    }
  } finally {
    await workbench.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
