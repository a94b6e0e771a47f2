// A short prompt's round trip (bench/reopen.ts runs it in its code-server): `ping N`, the demo agent's echo,
// from Enter in the chat's composer to the answer painted, with the host messages between stamped; and the
// same prompts to the bare agent (a bare SDK client over stdio) and through the host pipeline alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Frame, Page } from 'playwright-core';
import type { HostMessage } from '../src/protocol';
import { runCommand, UI_TIMEOUT, waitForTurnStatus } from '../test/e2e/support/chat';
import { webviewFrame } from '../test/e2e/support/workbench';
import { bareSession, benchChat } from './benchClients';
import { writeHistory } from './chatJournals';
import { cpuByRole, cpuSince, type CpuByRole } from './processCpu.mjs';
import { WHEN_PAINTED } from './whenPainted';

/** How long the simulated user takes to type the message, after clicking into the box. */
export const TYPING_MS = 1_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/**
 * Each trip's CPU is counted from Enter for this long: the trip and the work it leaves behind (the turn's end,
 * its journal, the checkpoint after it), the same window for ours and the floor's.
 */
const CPU_WINDOW_MS = 1_000;

/** The empty extension whose round trip is the floor of ours (bench/fixtures/echo-extension). */
export const ECHO_EXTENSION = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'echo-extension');

/** Shows the empty extension's view in the panel (the chat stays in the side bar) and returns its frame. */
export async function openEcho(page: Page): Promise<Frame> {
  await runCommand(page, 'Bench Echo: Focus on Bench Echo View');
  return webviewFrame(page, async (frame) => (await frame.locator('#echo-input').count()) > 0, {
    timeout: UI_TIMEOUT,
  });
}

/** What each of the bench's processes used in a trip's window (ms, by role: `processCpu.mjs`). */
export type TripCpuByRole = Readonly<Record<string, number>>;

/** One round trip, ms after Enter: the first host message, the turn started, the answer's first chunk, the DOM, the paint. */
export interface RoundTrip {
  readonly ms: number;
  readonly firstMessageMs: number;
  /** The turn starts once the checkpoint before the prompt is taken, as the prompt goes out. */
  readonly turnStartedMs: number;
  readonly answerMessageMs: number;
  readonly domMs: number;
  readonly cpu: TripCpuByRole;
}

/** The globals the probes stamp a trip in: the chat page's, the empty extension's, the peer's (bench/peerRoundTrip.ts). */
type TripProbe = '__roundTrip' | '__echoTrip' | '__peerTrip';

/**
 * A probe for a page (a string: tsx would add helpers to a function's source), stamping in `window[probe]` (ms,
 * `Date.now()`) Enter's keydown, the DOM change that shows the answer (`answerShown`: an expression read at each
 * change, which may call `lastText(selector)`, the text of the last element matching it) and the frame that paints
 * it. With `stampMessages`, also the messages the page gets after Enter: the first, the turn's start (a
 * `turn_started` in it) and the answer's (a "You said: " in it, which both the chat's and the echo's carry).
 */
export function answerPaintProbe(probe: TripProbe, answerShown: string, stampMessages = false): string {
  const listen = stampMessages
    ? `const onMessage = (event) => {
    if (state.enterAt === 0) return;
    const text = JSON.stringify(event.data);
    if (state.firstMessageAt === 0) state.firstMessageAt = Date.now();
    if (state.turnStartedAt === 0 && text.includes('"turn_started"')) state.turnStartedAt = Date.now();
    if (text.includes('You said: ')) {
      state.answerMessageAt = Date.now();
      window.removeEventListener('message', onMessage);
    }
  };
  window.addEventListener('message', onMessage);`
    : '';
  return `${WHEN_PAINTED}(() => {
  const state = { enterAt: 0, firstMessageAt: 0, turnStartedAt: 0, answerMessageAt: 0, domAt: 0, paintedAt: 0 };
  window.${probe} = state;
  const lastText = (selector) => { const all = document.querySelectorAll(selector); return all[all.length - 1]?.textContent; };
  const onKey = (event) => {
    if (event.key === 'Enter') { state.enterAt = Date.now(); window.removeEventListener('keydown', onKey, true); }
  };
  window.addEventListener('keydown', onKey, true);
  ${listen}
  const observer = new MutationObserver(() => {
    if (!(${answerShown})) return;
    observer.disconnect();
    state.domAt = Date.now();
    window.__whenPainted(() => { state.paintedAt = Date.now(); });
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;
}

/** The chat page's probe: the answer is the last agent message's text. */
const ROUND_TRIP_PROBE = (answer: string): string =>
  answerPaintProbe(
    '__roundTrip',
    `lastText('article.entry-agent')?.includes(${JSON.stringify(answer)})`,
    true,
  );

/**
 * The floor (bench/fixtures/echo-extension, loaded beside ours): Enter in its view's input → the echo
 * painted, stamped as the chat's are; VS Code's webview → extension host → webview trip and a paint.
 */
const ECHO_PROBE = (answer: string): string =>
  answerPaintProbe(
    '__echoTrip',
    `document.querySelector('#echo-log p:last-child')?.textContent === ${JSON.stringify(answer)}`,
    true,
  );

/** The floor's round trip, ms after Enter: the echo's message, in the DOM, painted. */
export interface FloorTrip {
  readonly ms: number;
  readonly answerMessageMs: number;
  readonly domMs: number;
  readonly cpu: TripCpuByRole;
}

/**
 * Presses Enter in `input` and waits for `done`; then, the window from Enter waited out, what each process
 * used in it. Nothing of the bench's talks to the page meanwhile but `done`'s own wait, as in the floor's trip.
 */
export async function pressAndCount(
  frame: Frame,
  input: string,
  done: () => Promise<void>,
): Promise<TripCpuByRole> {
  const before: CpuByRole = cpuByRole();
  const start = Date.now();
  await frame.locator(input).press('Enter');
  await done();
  await frame.waitForTimeout(Math.max(0, start + CPU_WINDOW_MS - Date.now()));
  return cpuSince(before);
}

/** What the processes use in a window of the same length with no trip: what both trips' windows hold anyway. */
async function idleCpu(frame: Frame): Promise<TripCpuByRole> {
  const before = cpuByRole();
  await frame.waitForTimeout(CPU_WINDOW_MS);
  return cpuSince(before);
}

/** Waits until the page's probe (`window[probe]`) has stamped the frame that painted the answer. */
export async function waitForPainted(frame: Frame, probe: TripProbe): Promise<void> {
  await frame.waitForFunction(
    (name) => ((window as unknown as Record<string, { paintedAt?: number }>)[name]?.paintedAt ?? 0) > 0,
    probe,
    { timeout: UI_TIMEOUT },
  );
}

/** The stamps the page's probe took (`Date.now()` in the page): Enter, the answer painted and `K`. */
export async function readStamps<K extends string = never>(
  frame: Frame,
  probe: TripProbe,
): Promise<Record<K | 'enterAt' | 'paintedAt', number>> {
  return (await frame.evaluate(`window.${probe}`)) as Record<K | 'enterAt' | 'paintedAt', number>;
}

/** One round trip in the empty extension's view (its frame: the one with `#echo-input`). */
export async function echoTrip(echo: Frame, text: string): Promise<FloorTrip> {
  await echo.evaluate(ECHO_PROBE(`You said: ${text}`));
  const input = echo.locator('#echo-input');
  await input.click();
  await input.fill(text);
  const cpu = await pressAndCount(echo, '#echo-input', () => waitForPainted(echo, '__echoTrip'));
  const stamps = await readStamps<'answerMessageAt' | 'domAt'>(echo, '__echoTrip');
  return {
    ms: stamps.paintedAt - stamps.enterAt,
    answerMessageMs: stamps.answerMessageAt - stamps.enterAt,
    domMs: stamps.domAt - stamps.enterAt,
    cpu,
  };
}

/** One round trip of `text` in the chat, to the answer painted; the turn's end waited for in its CPU window. */
export async function chatTrip(chat: Frame, text: string): Promise<RoundTrip> {
  await chat.evaluate(ROUND_TRIP_PROBE(`You said: ${text}`));
  // A user clicks into the box and takes a moment to type: the checkpoint is taken meanwhile (ahead of Send).
  const input = chat.locator('.composer-input');
  await input.click();
  await chat.waitForTimeout(TYPING_MS);
  await input.fill(text);
  const cpu = await pressAndCount(chat, '.composer-input', async () => {
    await waitForPainted(chat, '__roundTrip');
    const turnId = await chat.locator('section.turn[data-turn-id]').last().getAttribute('data-turn-id');
    await waitForTurnStatus(chat, turnId ?? '', 'completed');
  });
  const stamps = await readStamps<'firstMessageAt' | 'turnStartedAt' | 'answerMessageAt' | 'domAt'>(
    chat,
    '__roundTrip',
  );
  return {
    ms: stamps.paintedAt - stamps.enterAt,
    firstMessageMs: stamps.firstMessageAt - stamps.enterAt,
    turnStartedMs: stamps.turnStartedAt - stamps.enterAt,
    answerMessageMs: stamps.answerMessageAt - stamps.enterAt,
    domMs: stamps.domAt - stamps.enterAt,
    cpu,
  };
}

/**
 * Round trips of `ping N` in the open chat: Enter → the answer painted (a probe in the chat page); each
 * followed by one in the empty extension's view (`echo`), so both see the same load.
 */
export async function roundTrips(
  chat: Frame,
  echo: Frame,
): Promise<{ ours: RoundTrip[]; floor: FloorTrip[]; idle: TripCpuByRole[] }> {
  const times: RoundTrip[] = [];
  const floor: FloorTrip[] = [];
  const idle: TripCpuByRole[] = [];
  for (let run = 0; run <= RUNS; run++) {
    const quiet = await idleCpu(echo);
    if (run > 0) {
      idle.push(quiet);
    }
    const echoed = await echoTrip(echo, `ping ${run}-${Date.now()}`);
    if (run > 0) {
      floor.push(echoed);
    }
    const ours = await chatTrip(chat, `ping ${run}-${Date.now()}`);
    if (run > 0) {
      times.push(ours); // the first warms both ends
    }
  }
  return { ours: times, floor, idle };
}

/**
 * The bare agent's round trips as VS Code starts it (src/vscode/agentCatalog.ts): its sessions kept in a folder of
 * its own, written before it answers — the agent's own part of the trip.
 */
export async function agentRoundTrips(): Promise<number[]> {
  const stateDir = mkdtempSync(join(tmpdir(), 'bench-agent-state-'));
  try {
    return await bareRoundTrips(stateDir);
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/**
 * The same prompts to the bare agent: request → prompt response, over stdio through the SDK; with `stateDir`, its
 * sessions kept there (`agentRoundTrips`).
 */
export async function bareRoundTrips(stateDir?: string): Promise<number[]> {
  const session = await bareSession('bench-round-trip', () => {}, stateDir);
  try {
    const times: number[] = [];
    for (let run = 0; run <= RUNS; run++) {
      const started = performance.now();
      await session.prompt(`ping ${run}-${Date.now()}`);
      if (run > 0) {
        times.push(performance.now() - started);
      }
    }
    return times;
  } finally {
    session.close();
  }
}

/**
 * The same prompts through the host pipeline alone (a real ChatController on the demo agent, no checkpoint
 * store, no VS Code): `send` → the view message carrying the answer, serialised as postMessage would; in a new
 * chat, beside a user's history (HISTORY) when `besideHistory`.
 */
export async function hostRoundTrips({ besideHistory = false } = {}): Promise<number[]> {
  const chat = benchChat(
    besideHistory ? (storageDir) => writeHistory(join(storageDir, 'chats'), 'bench') : undefined,
  );
  let answer = '';
  let answered: (() => void) | undefined;
  let ended: (() => void) | undefined;
  chat.controller.attachView({
    post(message: HostMessage): void {
      if (answer !== '' && JSON.stringify(message).includes(answer)) {
        answered?.();
      }
      if (message.type === 'thread_events' && message.events.some((event) => event.type === 'turn_ended')) {
        ended?.();
      }
    },
  });
  try {
    await chat.controller.handleMessage({ type: 'ready' });
    if (besideHistory) {
      await chat.controller.handleMessage({ type: 'new_chat' });
    }
    await chat.controller.connectActive();
    const times: number[] = [];
    for (let run = 0; run <= RUNS; run++) {
      const text = `ping ${run}-${Date.now()}`;
      answer = `You said: `;
      const done = new Promise<void>((resolve) => (answered = resolve));
      const turnEnded = new Promise<void>((resolve) => (ended = resolve));
      const started = performance.now();
      await chat.controller.handleMessage({ type: 'send', text });
      await done;
      if (run > 0) {
        times.push(performance.now() - started);
      }
      answer = '';
      await turnEnded; // before the next prompt
    }
    return times;
  } finally {
    await chat.dispose();
  }
}
