// What a short prompt's round trip costs the window's renderer (bench/reopen.ts runs it after the round trips):
// the main thread's own CPU time (a Chromium trace's thread time, so waits for a core on a loaded machine do
// not count) from Enter to a fixed time after, for ours and for the empty extension's echo in the same window.
// code-server serves the webviews from the workbench's site, so the workbench and both pages share that thread.
// BENCH_TRIP_TRACE=<file> also writes the trace.
import { writeFileSync } from 'node:fs';
import type { Frame, Page } from 'playwright-core';
import { UI_TIMEOUT, waitForTurnStatus } from '../test/e2e/support/chat';
import { onThreads, selfTimes, threads, totalTime } from './traceTimes.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Each trip's window from Enter: long enough for the answer painted and the updates after it. */
const WINDOW_MS = 1_500;

/** A trip's main-thread CPU (ms, the median trip) and its parts by kind of work (the median trip's). */
export interface TripCpu {
  readonly ms: number;
  readonly runs: number[];
  readonly kinds: Record<string, number>;
}

interface TraceEvent {
  readonly name: string;
  readonly cat?: string;
  readonly ph: string;
  readonly ts: number;
  readonly pid: number;
  readonly tid: number;
}

/**
 * Traces the window's renderer while `trips` run (a round trip marks its Enter as `trip N`, user timing, in its
 * own frame; bench/longStreamCpu.ts traces a whole stream).
 */
export async function traced(page: Page, trips: () => Promise<void>): Promise<TraceEvent[]> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  const finished = new Promise((done) => cdp.once('Tracing.tracingComplete', done));
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8,v8.execute,blink.user_timing',
    transferMode: 'ReportEvents',
  });
  try {
    await trips();
  } finally {
    await cdp.send('Tracing.end');
    await finished;
    await cdp.detach();
  }
  return events;
}

/** Each trip's CPU: the main threads' self time in [its mark, its mark + WINDOW_MS). */
function perTrip(events: TraceEvent[], label: string): TripCpu {
  const main = onThreads(events, threads(events).main);
  const starts = events
    .filter((e) => e.cat?.includes('user_timing') && e.name.startsWith(`${label} `))
    .map((e) => e.ts)
    .filter((ts, index, all) => all.indexOf(ts) === index)
    .sort((a, b) => a - b);
  const trips = starts.map((start) => selfTimes(main, start, start + WINDOW_MS * 1000));
  const totals = trips.map((trip) => totalTime(trip));
  const middle = [...totals].sort((a, b) => a - b)[Math.floor(totals.length / 2)] ?? Number.NaN;
  const median = trips[totals.indexOf(middle)] ?? new Map();
  return { ms: middle, runs: totals, kinds: Object.fromEntries(median) };
}

/** Types `text` into `input`, marks Enter in `frame`'s page, presses it, and waits out the window. */
async function trip(frame: Frame, input: string, text: string, mark: string, painted: () => Promise<void>): Promise<void> {
  const box = frame.locator(input);
  await box.click();
  await box.fill(text);
  await frame.evaluate((name) => performance.mark(name), mark);
  const enter = Date.now();
  await box.press('Enter');
  await painted();
  await frame.waitForTimeout(Math.max(0, enter + WINDOW_MS - Date.now()) + 100);
}

/** RUNS trips each, ours and the echo's alternating, in one trace. */
export async function roundTripCpu(page: Page, chat: Frame, echo: Frame): Promise<{ ours: TripCpu; floor: TripCpu }> {
  const events = await traced(page, async () => {
    for (let run = 0; run < RUNS; run++) {
      const echoed = `cpu ${run}-${Date.now()}`;
      await trip(echo, '#echo-input', echoed, `echo ${run}`, () =>
        echo.waitForFunction(
          (answer) => document.querySelector('#echo-log p:last-child')?.textContent === answer,
          `You said: ${echoed}`,
          { timeout: UI_TIMEOUT },
        ).then(() => undefined),
      );
      const turns = chat.locator('section.turn[data-turn-id]');
      const before = await turns.count();
      await trip(chat, '.composer-input', `ping cpu ${run}-${Date.now()}`, `ours ${run}`, async () => {
        await chat.waitForFunction((count) => document.querySelectorAll('section.turn[data-turn-id]').length > count, before, {
          timeout: UI_TIMEOUT,
        });
        const turnId = await turns.last().getAttribute('data-turn-id');
        await waitForTurnStatus(chat, turnId ?? '', 'completed');
      });
    }
  });
  const tracePath = process.env.BENCH_TRIP_TRACE;
  if (tracePath) {
    // For a look at one trip's tasks in order (DevTools' Performance panel, chrome://tracing).
    writeFileSync(tracePath, JSON.stringify({ traceEvents: events }));
  }
  return { ours: perTrip(events, 'ours'), floor: perTrip(events, 'echo') };
}
