// A one-off probe (issue 34), not part of `npm run bench`: the round trip and the weight of 200 short turns beside a
// peer — the ACP Client extension (formulahendry/vscode-acp), which issue 34 measured ahead of us on the round trip —
// in the same code-server, on the same demo agent started the same way, trips alternating with the floor's (the
// empty extension's, bench/fixtures/echo-extension).
//
//   BENCH_PEER_EXTENSION=<folder>  the peer's repository, built (`npm ci && npx webpack --mode production`); its
//                                  manifest is copied with its views in the empty extension's panel container (and
//                                  renamed, apart from VS Code's own Chat), so that the three views show at once
//   BENCH_RUNS (default 9)         round trips of each, after one warm-up each
//   BENCH_PEER_TURNS (default 200) short turns sent to each chat after the trips, for their elements and heap
//
// `node --import tsx bench/peerRoundTrip.ts` after `node esbuild.mjs --production`; prints JSON on its last line and
// writes test-results/bench-peer.png (the window after the turns).
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Frame, Page } from 'playwright-core';
import { openChat, runCommand, sendPrompt, UI_TIMEOUT, waitForTurnStatus } from '../test/e2e/support/chat';
import { startWorkbench, webviewFrame } from '../test/e2e/support/workbench';
import {
  answerPaintProbe,
  chatTrip,
  ECHO_EXTENSION,
  echoTrip,
  openEcho,
  pressAndCount,
  readStamps,
  TYPING_MS,
  waitForPainted,
} from './roundTrip';
import { snapshotMb } from './heapSnapshot.mjs';
import { elementCount, heapMb } from './webviewPage.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const TURNS = Number(process.env.BENCH_PEER_TURNS ?? 200);
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The peer's built extension, installed from a copy whose views live in the empty extension's panel container
 * (bench/fixtures/echo-extension), so that ours in the side bar, the peer's chat and the floor's view show at once.
 */
function peerExtension(source: string): string {
  if (!existsSync(join(source, 'dist', 'extension.js'))) {
    throw new Error(
      `BENCH_PEER_EXTENSION: no built extension in ${source} (npm ci && npx webpack --mode production)`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-peer-'));
  const manifest = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as {
    contributes: { viewsContainers?: unknown; views: Record<string, { name: string }[]> };
  };
  const views = Object.values(manifest.contributes.views).flat();
  for (const view of views) {
    view.name = `Peer ${view.name}`; // apart from VS Code's own Chat
  }
  manifest.contributes.views = { benchEcho: views };
  delete manifest.contributes.viewsContainers;
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  for (const part of ['dist', 'resources', 'LICENSE']) {
    cpSync(join(source, part), join(dir, part), { recursive: true });
  }
  return dir;
}

/** In the peer's page: whether its last answer shows `text` rendered as markdown — its turn over (`promptEnd`, then the render). */
const peerAnswered = (text: string): boolean => {
  const answers = document.querySelectorAll('.message.assistant.md-rendered');
  return answers[answers.length - 1]?.textContent?.includes(text) === true;
};

/** In our page: whether its last turn is over and its answer shows `text`. */
const ourAnswered = (text: string): boolean => {
  const turns = document.querySelectorAll('section.turn[data-turn-id]');
  const last = turns[turns.length - 1];
  return (
    last?.getAttribute('data-status') === 'completed' &&
    last.querySelector('article.entry-agent')?.textContent?.includes(text) === true
  );
};

/** One round trip in the peer's chat, as `chatTrip` runs ours: a click, a moment's typing, Enter, the answer painted (ms). */
async function peerTrip(peer: Frame, text: string): Promise<number> {
  const answer = JSON.stringify(`You said: ${text}`);
  await peer.evaluate(answerPaintProbe('__peerTrip', `lastText('.message.assistant')?.includes(${answer})`));
  const input = peer.locator('#promptInput');
  await input.click();
  await peer.waitForTimeout(TYPING_MS);
  await input.fill(text);
  await pressAndCount(peer, '#promptInput', async () => {
    await waitForPainted(peer, '__peerTrip');
    await peer.waitForFunction(peerAnswered, `You said: ${text}`, { timeout: UI_TIMEOUT });
  });
  const stamps = await readStamps(peer, '__peerTrip');
  return stamps.paintedAt - stamps.enterAt;
}

/** Connects the peer to the demo agent (its "Connect to Agent" command) and returns its chat's frame. */
async function openPeer(page: Page): Promise<Frame> {
  await runCommand(page, 'ACP: Connect to Agent', { asks: 'Connect to Agent' });
  await page.keyboard.type('Demo');
  await page.keyboard.press('Enter');
  const peer = await webviewFrame(page, async (frame) => (await frame.locator('#promptInput').count()) > 0, {
    timeout: UI_TIMEOUT,
  });
  // Its session made: the banner naming the agent shows.
  await peer.locator('#sessionBanner.visible').waitFor({ timeout: 60_000 });
  return peer;
}

/** The window renderer's JS heap after a GC, and V8's compiled code in it (MB): every page's and the workbench's. */
async function heap(page: Page): Promise<{ heapMb: number; codeMb: number }> {
  return { heapMb: await heapMb(page), codeMb: (await snapshotMb(page)).codeMb };
}

/** A chat as the weighing drives it: its composer's selector, and whether answer `text` is shown and its turn over. */
interface Composer {
  readonly frame: Frame;
  readonly input: string;
  readonly answered: (text: string) => boolean;
}

const OUR_COMPOSER = (frame: Frame): Composer => ({ frame, input: '.composer-input', answered: ourAnswered });
const PEER_COMPOSER = (frame: Frame): Composer => ({ frame, input: '#promptInput', answered: peerAnswered });

/**
 * Sends TURNS short prompts into one chat, each waited out, driven alike in both (a click, a fill, Enter, one
 * wait: the driver's own code compiled in the window is then the same for each); the page's elements added and
 * the window's JS heap and compiled code grown.
 */
async function weigh(
  page: Page,
  chat: Composer,
): Promise<{ elements: number; heapMb: number; codeMb: number }> {
  const before = { elements: await elementCount(chat.frame), ...(await heap(page)) };
  const input = chat.frame.locator(chat.input);
  for (let n = 1; n <= TURNS; n++) {
    const text = `ping w${n}`;
    await input.click();
    await input.fill(text);
    await input.press('Enter');
    await chat.frame.waitForFunction(chat.answered, `You said: ${text}`, { timeout: UI_TIMEOUT });
  }
  const after = { elements: await elementCount(chat.frame), ...(await heap(page)) };
  return {
    elements: after.elements - before.elements,
    heapMb: after.heapMb - before.heapMb,
    codeMb: after.codeMb - before.codeMb,
  };
}

async function main(): Promise<void> {
  const source = process.env.BENCH_PEER_EXTENSION;
  if (!source) {
    throw new Error('BENCH_PEER_EXTENSION: the folder of the peer extension, built');
  }
  const peerDir = peerExtension(resolve(source));
  const stateDir = mkdtempSync(join(tmpdir(), 'bench-peer-agent-'));
  const workbench = await startWorkbench({
    otherExtensions: [ECHO_EXTENSION, peerDir],
    settings: {
      'acp.agents': {
        Demo: {
          command: process.execPath,
          args: [join(REPO, 'dist', 'demo-agent.js')],
          // As ours starts it (src/vscode/agentCatalog.ts): its sessions kept in a folder, written before it answers.
          env: { ELECTRON_RUN_AS_NODE: '1', TEST_AGENT_STATE_DIR: stateDir },
        },
      },
    },
  });
  try {
    const { page } = workbench;
    const chat = await openChat(page);
    const hello = await sendPrompt(chat, 'hello');
    await waitForTurnStatus(chat, hello, 'completed', { timeout: 60_000 });
    const echo = await openEcho(page);
    const peer = await openPeer(page);
    const ours: number[] = [];
    const theirs: number[] = [];
    const floor: number[] = [];
    for (let run = 0; run <= RUNS; run++) {
      const echoed = await echoTrip(echo, `ping ${run}-${Date.now()}`);
      const their = await peerTrip(peer, `ping ${run}-${Date.now()}`);
      const our = await chatTrip(chat, `ping ${run}-${Date.now()}`);
      if (run > 0) {
        floor.push(echoed.ms);
        theirs.push(their);
        ours.push(our.ms); // the first of each warms both ends
      }
    }
    const peerWeight = await weigh(page, PEER_COMPOSER(peer));
    const ourWeight = await weigh(page, OUR_COMPOSER(chat));
    await page.screenshot({ path: join(REPO, 'test-results', 'bench-peer.png') });
    process.stdout.write(
      JSON.stringify({ runs: RUNS, turns: TURNS, floor, ours, theirs, ourWeight, peerWeight }) + '\n',
    );
  } finally {
    await workbench.stop();
    rmSync(peerDir, { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
