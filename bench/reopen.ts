// Reopen and round trip in the real VS Code (run by bench/run.mjs with tsx; expects a build in dist/ —
// `npm run bench` makes the production one). code-server + headless Chromium as the e2e tests run them.
//
//  - Reopen: a chat of 200 turns (the demo agent's own session, loaded — its history replayed — through
//    the chat list) in the sidebar; the view hidden (a click on its activity-bar item) and shown again
//    (the same click). From the click (its `pointerdown`, stamped in the workbench page) to the last turn
//    painted: with the page kept while hidden (`acpAgents.chat.keepViewWhenHidden`, VS Code's
//    `retainContextWhenHidden`), the frame that paints the view's iframe shown; without it, the frame that
//    paints the new page's DOM holding the last turn (a probe in every frame, installed before the page's
//    script; the paint stamped as bench/whenPainted.ts does).
//    Both designs, each in its own code-server; beside them what Chromium's renderers hold with the view
//    hidden (RSS) and the kept page's JS heap.
//  - Round trip: a short prompt (`ping N`, the demo agent's echo) from Enter in the composer to the answer
//    painted; beside it the bare agent's time for the same prompt: a bare SDK client over stdio, from the
//    request to the prompt's response (the answer's chunks arrive before it).
// Prints JSON on its last line.
//
//   BENCH_RUNS (default 5)  BENCH_REOPEN_TURNS (default 200)  BENCH_REOPEN_DESIGNS (default "keep,rebuild")
//   BENCH_WEBVIEW_SITE=own: webviews served from a site of their own, so Chromium runs them in a renderer of
//   their own (as VS Code desktop and vscode.dev do) rather than on the workbench's main thread (code-server)
import { loadavg } from 'node:os';
import { longChatSnapshot } from './workloads.mjs';
import type { Frame, Page } from 'playwright-core';
import {
  openChat,
  runCommand,
  sendPrompt,
  showChats,
  UI_TIMEOUT,
  waitForTurnStatus,
} from '../test/e2e/support/chat';
import { startWorkbench, webviewFrame, hasRenderedApp } from '../test/e2e/support/workbench';
import {
  agentRoundTrips,
  bareRoundTrips,
  ECHO_EXTENSION,
  hostRoundTrips,
  openEcho,
  roundTrips,
  type FloorTrip,
  type RoundTrip,
  type TripCpuByRole,
} from './roundTrip';
import { roundTripCpu, type TripCpu } from './roundTripCpu';
import { HISTORY, journalDir, withHistory, writeChatJournal } from './chatJournals';
import { WHEN_PAINTED } from './whenPainted';
import { reopenRows } from './reopenRows.mjs';
import { formatRow } from './rows.mjs';
// The workbench page's renderer holds the chat's page too: code-server serves webviews from its own site
// (not with BENCH_WEBVIEW_SITE=own, whose rows say that the heap and RSS figures leave the pages out).
import { heapMb, rendererRssMb } from './webviewPage.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TURNS = Number(process.env.BENCH_REOPEN_TURNS ?? 200);
const DESIGNS = (process.env.BENCH_REOPEN_DESIGNS ?? 'keep,rebuild').split(',').map((d) => d.trim());
const TITLE = `Bench: ${TURNS} turns`;
const WEBVIEWS_OWN_SITE = process.env.BENCH_WEBVIEW_SITE === 'own';
const LONG_CHAT_ID = 'bench-reopen-long';
/** The last turn's answer, once built. */
const LAST_TURN = `section.turn[data-turn-id="t${TURNS}"] article.entry-agent`;

/**
 * A journal of TURNS finished turns — the webview bench's long chat: a question, an answer with code, a
 * tool call with a diff, a checkpoint and a card of three changed files each — as the extension reads it
 * back when the window opens.
 */
function writeLongChat(dir: string): void {
  const now = Date.now();
  const meta = { chatId: LONG_CHAT_ID, agentId: 'demo', customTitle: TITLE, createdAt: now, updatedAt: now };
  writeChatJournal(dir, meta, longChatSnapshot(TURNS).view.chat.thread);
}

/**
 * In every frame, before its scripts (playwright init script; a string: tsx would add helpers to a
 * function's source). In the workbench: the click's time and the first frame the chat's iframe is visible.
 * In a chat webview: when its DOM first holds the last turn, and when the frame that shows it is painted. VS Code writes a
 * webview's page with document.open() into a frame that keeps its window and document, but erases its
 * listeners and observers: they are set again right after document.open().
 */
const PROBE = (lastTurn: string): string => `${WHEN_PAINTED}(() => {
  const probe = { clickAt: 0, visibleAt: 0, visiblePaintedAt: 0, messageAt: 0, domAt: 0, paintedAt: 0 };
  window.__reopenProbe = probe;
  if (window.top === window) {
    window.addEventListener('keydown', (event) => {
      if (!event.ctrlKey || event.key !== 'b') return;
      probe.clickAt = Date.now(); probe.visibleAt = 0; probe.visiblePaintedAt = 0;
      const watch = () => {
        const shown = [...document.querySelectorAll('iframe.webview')].some((f) => {
          const box = f.getBoundingClientRect();
          return box.width > 0 && box.height > 0 && f.checkVisibility({ visibilityProperty: true });
        });
        if (!shown) { requestAnimationFrame(watch); return; }
        probe.visibleAt = Date.now();
        window.__whenPainted(() => { probe.visiblePaintedAt = Date.now(); });
      };
      requestAnimationFrame(watch);
    }, true);
  }
  // The rest is for webviews: the workbench's own DOM changes too often to watch it whole.
  const watchPage = () => {
    window.addEventListener('message', (event) => {
      const posted = Array.isArray(event.data) ? event.data : [event.data];
      if (probe.messageAt === 0 && posted.some((m) => m && m.type === 'snapshot')) probe.messageAt = Date.now();
    });
    const observer = new MutationObserver(() => {
      if (!document.querySelector(${JSON.stringify(lastTurn)})) return;
      observer.disconnect();
      probe.domAt = Date.now();
      window.__whenPainted(() => { probe.paintedAt = Date.now(); });
    });
    observer.observe(document, { subtree: true, childList: true });
  };
  if (window.top === window) return;
  watchPage();
  // document.open() erases the listeners and observers: watch again once it has run.
  const open = Document.prototype.open;
  Document.prototype.open = function (...args) {
    const opened = open.apply(this, args);
    if (this === document) watchPage();
    return opened;
  };
})()`;

interface Probe {
  readonly clickAt: number;
  readonly visibleAt: number;
  readonly visiblePaintedAt: number;
  readonly messageAt: number;
  readonly domAt: number;
  readonly paintedAt: number;
}

const hasLastTurn = (selector: string): boolean => document.querySelector(selector) !== null;

interface ProbeWindow {
  readonly __reopenProbe: Probe;
}

const readProbe = (target: Page | Frame): Promise<Probe> =>
  target.evaluate('window.__reopenProbe') as Promise<Probe>;

/**
 * Ctrl+B (View: Toggle Primary Side Bar Visibility), pressed with the focus in the workbench (its status
 * bar clicked first), so the workbench page sees the key.
 */
async function toggleSidebar(page: Page): Promise<void> {
  await page.locator('.part.statusbar').click({ position: { x: 600, y: 10 } });
  await page.keyboard.press('Control+b');
}

async function chatIframeVisible(page: Page): Promise<boolean> {
  return page.evaluate(() =>
    [...document.querySelectorAll('iframe.webview')].some((f) => {
      const box = f.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && f.checkVisibility({ visibilityProperty: true });
    }),
  );
}

/** Hides the view (its activity-bar item, clicked while selected, closes the sidebar). */
async function hide(page: Page, chat: Frame, keep: boolean): Promise<void> {
  await toggleSidebar(page);
  await page
    .waitForFunction(
      () =>
        ![...document.querySelectorAll('iframe.webview')].some((f) => {
          const box = f.getBoundingClientRect();
          return box.width > 0 && box.height > 0 && f.checkVisibility({ visibilityProperty: true });
        }),
      undefined,
      { timeout: UI_TIMEOUT, polling: 50 },
    )
    .catch(async (error: unknown) => {
      await page.screenshot({ path: 'test-results/bench-reopen-failed.png' });
      throw error;
    });
  if (!keep) {
    // The page is let go: wait until its frame is gone, so the next show builds a new one.
    const deadline = Date.now() + UI_TIMEOUT;
    while (!chat.isDetached()) {
      if (Date.now() > deadline) {
        throw new Error('the hidden chat page was not let go');
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

interface ReopenRun {
  readonly ms: number;
  readonly iframeVisibleMs: number;
  readonly snapshotMessageMs?: number;
  readonly domMs?: number;
}

/** Shows the view again and returns when the last turn was painted, from the click. */
async function show(page: Page, chat: Frame, keep: boolean): Promise<{ run: ReopenRun; chat: Frame }> {
  await toggleSidebar(page);
  if (keep) {
    await page.waitForFunction(
      () => (window as unknown as ProbeWindow).__reopenProbe.visiblePaintedAt > 0,
      undefined,
      {
        timeout: UI_TIMEOUT,
        polling: 50,
      },
    );
    const probe = await readProbe(page);
    if (!(await chat.evaluate(hasLastTurn, LAST_TURN))) {
      throw new Error('the kept chat page does not hold the last turn');
    }
    return {
      run: { ms: probe.visiblePaintedAt - probe.clickAt, iframeVisibleMs: probe.visibleAt - probe.clickAt },
      chat,
    };
  }
  const shown = await webviewFrame(page, hasRenderedApp, { timeout: UI_TIMEOUT });
  await shown.waitForFunction(
    () => ((window as unknown as Partial<ProbeWindow>).__reopenProbe?.paintedAt ?? 0) > 0,
    undefined,
    {
      timeout: UI_TIMEOUT,
      polling: 50,
    },
  );
  const inPage = await readProbe(page);
  const inChat = await readProbe(shown);
  return {
    run: {
      ms: inChat.paintedAt - inPage.clickAt,
      iframeVisibleMs: inPage.visibleAt - inPage.clickAt,
      snapshotMessageMs: inChat.messageAt - inPage.clickAt,
      domMs: inChat.domAt - inPage.clickAt,
    },
    chat: shown,
  };
}

/**
 * Writes the long chat's journal, reloads the window (a new extension host, which reads the journals),
 * opens the chat view and the long chat from its chat list.
 */
async function openLongChat(page: Page, userDataDir: string): Promise<Frame> {
  writeLongChat(journalDir(userDataDir));
  await page.reload({ waitUntil: 'domcontentloaded', timeout: 60_000 });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
  const chat = await openChat(page);
  await showChats(page, chat);
  await chat
    .getByRole('button', { name: new RegExp(TITLE) })
    .first()
    .click({ timeout: UI_TIMEOUT });
  await chat.waitForFunction(hasLastTurn, LAST_TURN, { timeout: 60_000, polling: 100 });
  return chat;
}

interface DesignFigures {
  readonly design: string;
  readonly runs: ReopenRun[];
  /** Chromium's renderers, with the chat view hidden / shown (MB RSS). */
  readonly hiddenRssMb?: number;
  readonly shownRssMb?: number;
  /** The workbench renderer's JS heap after a GC (MiB), with the chat view hidden / shown. */
  readonly hiddenHeapMb: number;
  readonly shownHeapMb: number;
  readonly roundTrips?: RoundTrip[];
  /** The empty extension's round trips, alternating with ours in the same window. */
  readonly floorTrips?: FloorTrip[];
  /** What the processes used in windows of a trip's length with no trip, between the trips. */
  readonly idleCpu?: TripCpuByRole[];
  /** What a trip costs the window's renderer main thread: ours and the empty extension's. */
  readonly tripCpu?: { readonly ours: TripCpu; readonly floor: TripCpu };
  readonly loadAverage: number[];
}

async function measureDesign(design: string, withRoundTrips: boolean): Promise<DesignFigures> {
  const keep = design === 'keep';
  const workbench = await startWorkbench({
    settings: { 'acpAgents.chat.keepViewWhenHidden': keep },
    otherExtensions: withRoundTrips ? [ECHO_EXTENSION] : [],
    webviewsOwnSite: WEBVIEWS_OWN_SITE,
  });
  try {
    const { page } = workbench;
    await page.context().addInitScript(PROBE(LAST_TURN));
    await page.evaluate(PROBE(LAST_TURN));
    let chat = await openChat(page);
    const loadBefore = loadavg()[0] ?? 0;
    // The agent starts with the first prompt; the round trips run in a short chat, before the long one.
    const hello = await sendPrompt(chat, 'hello');
    await waitForTurnStatus(chat, hello, 'completed', { timeout: 60_000 });
    if (withRoundTrips) {
      chat = await withHistory(page, workbench.server.userDataDir);
    }
    const echo = withRoundTrips ? await openEcho(page) : undefined;
    const trips = echo ? await roundTrips(chat, echo) : undefined;
    const tripCpu = echo ? await roundTripCpu(page, chat, echo) : undefined;
    chat = await openLongChat(page, workbench.server.userDataDir).catch(async (error: unknown) => {
      await page.screenshot({ path: 'test-results/bench-reopen-failed.png' });
      throw error;
    });
    if (withRoundTrips) {
      // The empty extension's view in the panel (shown again by the reload) would stay visible while the
      // chat is hidden and shown.
      await runCommand(page, 'View: Hide Panel');
    }
    const runs: ReopenRun[] = [];
    let hiddenRssMb: number | undefined;
    let hiddenHeapMb = Number.NaN;
    const shownHeapMb = await heapMb(page);
    const shownRssMb = rendererRssMb();
    for (let run = 0; run <= RUNS; run++) {
      await hide(page, chat, keep);
      if (run === 0) {
        hiddenRssMb = rendererRssMb();
        hiddenHeapMb = await heapMb(page);
      }
      const shown = await show(page, chat, keep).catch(async (error: unknown) => {
        console.error(JSON.stringify(await readProbe(page).catch(String)));
        console.error(
          await page.evaluate(() =>
            [...document.querySelectorAll('iframe.webview')].map((f) => [
              JSON.stringify(f.getBoundingClientRect()),
              f.checkVisibility({ visibilityProperty: true }),
              getComputedStyle(f).visibility,
              f.parentElement?.style.cssText,
            ]),
          ),
        );
        await page.screenshot({ path: 'test-results/bench-reopen-failed.png' });
        throw error;
      });
      chat = shown.chat;
      if (!(await chatIframeVisible(page))) {
        throw new Error('the chat view did not show');
      }
      if (run > 0) {
        runs.push(shown.run); // the first show warms the caches
      }
    }
    return {
      design,
      runs,
      hiddenRssMb,
      shownRssMb,
      hiddenHeapMb,
      shownHeapMb,
      roundTrips: trips?.ours,
      floorTrips: trips?.floor,
      idleCpu: trips?.idle,
      ...(tripCpu ? { tripCpu } : {}),
      loadAverage: [loadBefore, loadavg()[0] ?? 0],
    };
  } finally {
    await workbench.stop();
  }
}

async function main(): Promise<void> {
  const designs: DesignFigures[] = [];
  for (const [i, design] of DESIGNS.entries()) {
    process.stderr.write(
      `reopen: ${design === 'keep' ? 'page kept while hidden' : 'page rebuilt on show'}…\n`,
    );
    designs.push(await measureDesign(design, i === 0));
  }
  const figures = {
    turns: TURNS,
    webviewSite: WEBVIEWS_OWN_SITE ? 'own' : 'workbench',
    designs,
    bareRoundTripMs: await bareRoundTrips(),
    agentRoundTripMs: await agentRoundTrips(),
    hostRoundTripMs: await hostRoundTrips(),
    historyRoundTripMs: await hostRoundTrips({ besideHistory: true }),
    history: HISTORY,
  };
  if (process.env.BENCH_ONLY === 'reopen') {
    // Run alone (`BENCH_ONLY=reopen npm run bench`): the rows as the whole bench prints them.
    for (const row of reopenRows(figures)) {
      process.stdout.write(formatRow(row) + '\n');
    }
  }
  process.stdout.write(JSON.stringify(figures) + '\n');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
