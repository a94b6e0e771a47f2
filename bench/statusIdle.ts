// The idle cost of chats' status (`npm run bench`; `BENCH_ONLY=statusidle` alone): a real ChatController on
// the demo agent with ten chats whose turns run and wait on the agent (`hang`: nothing streams), against the
// same controller with no chat running. Over a window of BENCH_IDLE_MS (default 10 s) it counts the timers
// the extension host's process makes and the timer callbacks that wake it, and its CPU time: the status
// (running / waiting / unread / failed, for the list, tabs, badge, status bar) is kept from events alone, so
// ten running chats should cost what none do. Prints its row; writes bench-results/statusidle.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { benchChat } from './benchClients';
import { formatRow, statusIdleRows } from './rows.mjs';

const CHATS = 10;
const WINDOW_MS = Number(process.env.BENCH_IDLE_MS ?? 10_000);

const realSetTimeout = globalThis.setTimeout;
const pause = (ms: number): Promise<void> => new Promise((resolve) => realSetTimeout(resolve, ms));

/** Counts timers made and timer callbacks run while `counting` (the bench's own pauses are not counted). */
const counts = { counting: false, timersCreated: 0, wakeUps: 0, lockHeartbeats: 0 };
function countTimers(): void {
  for (const name of ['setTimeout', 'setInterval'] as const) {
    const real = globalThis[name] as (callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => unknown;
    (globalThis as Record<string, unknown>)[name] = (callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
      if (counts.counting) {
        counts.timersCreated++;
      }
      // Where the timer was made, to name what wakes the process (BENCH_IDLE_TRACE=1 prints it).
      const madeAt = `${ms ?? 0} ms, ${new Error().stack?.split('\n').slice(2, 7).join(' ← ')}`;
      return real(
        (...callbackArgs: unknown[]) => {
          if (counts.counting) {
            counts.wakeUps++;
            // The chat files' writer locks are refreshed every 20 s (other windows see them alive): the
            // journal's, not the status's.
            if (madeAt.includes('journalLock')) {
              counts.lockHeartbeats++;
            }
            if (process.env.BENCH_IDLE_TRACE) {
              console.log(`woken by a timer of ${madeAt}`);
            }
          }
          callback(...callbackArgs);
        },
        ms,
        ...args,
      );
    };
  }
}

interface IdleWindow {
  readonly chats: number;
  readonly windowMs: number;
  readonly timersCreated: number;
  readonly wakeUps: number;
  /** Of which the chat files' writer-lock refresh (src/core/journal/journalLock.ts). */
  readonly lockHeartbeats: number;
  readonly cpuMs: number;
  /** Timers alive at the window's end (`process.getActiveResourcesInfo()`), whoever made them. */
  readonly activeTimers: number;
}

async function idleWindow(chats: number): Promise<IdleWindow> {
  counts.timersCreated = 0;
  counts.wakeUps = 0;
  counts.lockHeartbeats = 0;
  counts.counting = true;
  const cpu = process.cpuUsage();
  await pause(WINDOW_MS);
  const used = process.cpuUsage(cpu);
  counts.counting = false;
  return {
    chats,
    windowMs: WINDOW_MS,
    timersCreated: counts.timersCreated,
    wakeUps: counts.wakeUps,
    lockHeartbeats: counts.lockHeartbeats,
    cpuMs: (used.user + used.system) / 1000,
    // Minus the window's own pause.
    activeTimers: process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length,
  };
}

async function main(): Promise<void> {
  countTimers();
  const loads = [loadavg()[0]!.toFixed(1)];
  const { controller, dispose } = benchChat();
  controller.attachView({ post: () => undefined });
  try {
    await controller.handleMessage({ type: 'ready' });
    await controller.connectActive();
    await pause(1_000);
    const none = await idleWindow(0);
    const turns: Promise<void>[] = [];
    for (let i = 0; i < CHATS; i++) {
      if (i > 0) {
        await controller.newChat();
      }
      turns.push(controller.send('hang').catch(() => undefined));
    }
    while (controller.activity.counts().running < CHATS) {
      await pause(50);
    }
    await pause(1_000);
    const running = await idleWindow(controller.activity.counts().running);
    loads.push(loadavg()[0]!.toFixed(1));
    for (const chat of controller.chatList()) {
      await controller.switchChat(chat.chatId);
      await controller.cancel();
    }
    await Promise.all(turns);
    const result = { date: new Date().toISOString(), loadAverage: loads, none, running };
    const out = path.join(__dirname, '..', 'bench-results');
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, 'statusidle.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(`Chats' status at rest: ${JSON.stringify({ none, running })}`);
    for (const row of statusIdleRows(result)) {
      console.log(formatRow(row));
    }
  } finally {
    await dispose();
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
