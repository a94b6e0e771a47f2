/**
 * What an e2e test does with the chat view, the way a person does it: type into the composer and press
 * Enter, click the buttons the webview shows, read the transcript's text. Plus the workbench chores the
 * tests share: a larger window with a wide sidebar (README screenshots), the command palette, a temporary
 * folder in the sample workspace.
 *
 * Selectors follow webview/render/*.ts: a turn is `section.turn[data-turn-id]` with its entries and a
 * `.turn-footer`; an agent message is `article.entry-agent` whose markdown is `.markdown`.
 */
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { repoRoot } from '../../../scripts/tools.mjs';
import {
  hasRenderedApp,
  sampleWorkspace,
  screenshot,
  webviewFrame,
  type RunningWorkbench,
} from './workbench';

/** How long a UI change may take to show (a webview round trip, an agent start). */
export const UI_TIMEOUT = 20_000;

/**
 * Opens the ACP Agents view and returns its webview frame once the chat has rendered. Like openAcpView(),
 * but it checks the outcome and clicks again: right after a window (re)load the workbench may still be
 * restoring its sidebar, and a click in that moment can close the container it is opening.
 */
export async function openChat(page: Page, { timeout = 30_000 } = {}): Promise<Frame> {
  const deadline = Date.now() + timeout;
  const item = page.locator('.activitybar a.action-label[aria-label^="ACP Agents"]');
  await item.waitFor({ state: 'visible', timeout });
  let frame: Frame | undefined;
  while (!frame) {
    try {
      frame = await tryOpenChat(page, item);
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error('the ACP Agents view did not open', { cause: error });
      }
    }
  }
  // Off the item, so its hover does not cover screenshots.
  const viewport = page.viewportSize();
  await page.mouse.move((viewport?.width ?? 1400) / 2, (viewport?.height ?? 900) / 2);
  await frame.locator('.composer-input').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  return frame;
}

/**
 * One attempt: the container clicked open unless it is, then the view's frame visible and rendered. Both
 * are checked on each attempt: the sidebar's restore can close the container after its frame was visible
 * for a moment, leaving a frame that never renders (seen in the bench after its reload).
 */
async function tryOpenChat(page: Page, item: Locator): Promise<Frame> {
  const selected = await item.evaluate((element) =>
    element.closest('[role="tab"]')?.getAttribute('aria-selected'),
  );
  if (selected !== 'true') {
    await item.click();
  }
  // Visible, not only attached: a click while the sidebar restores after a reload can close it again,
  // leaving the view's frame in the page but off screen (seen: the composer 'outside of the viewport').
  await page.locator('iframe.webview').first().waitFor({ state: 'visible', timeout: 5_000 });
  return webviewFrame(page, hasRenderedApp, { timeout: 10_000 });
}

/** A chat webview shown in the editor area (an editor tab): a rendered chat frame whose iframe lies there. */
export async function editorChatFrame(page: Page, timeout = 60_000): Promise<Frame> {
  const deadline = Date.now() + timeout;
  const editorArea = await page.locator('.part.editor').boundingBox();
  assert.ok(editorArea, 'the editor area is visible');
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame() || frame.isDetached()) {
        continue;
      }
      const rendered = await hasRenderedApp(frame).catch(() => false);
      // Playwright gives a frame element's box relative to the page, also for nested webview frames.
      const element = rendered ? await frame.frameElement().catch(() => undefined) : undefined;
      const position = element ? await element.boundingBox() : null;
      if (position && position.width > 0 && position.x >= editorArea.x - 1) {
        return frame;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('no chat webview in the editor area');
}

/** The chat view's title in the sidebar: "ACP Agents: <the chat's title>". */
export function viewTitle(page: Page): Locator {
  return page.locator('[id="workbench.parts.sidebar"] .composite.title h2');
}

/** Clicks one of the chat view's title actions (New Chat, Show Chats, Open Chat in Editor, Show Agent Log). */
export async function viewTitleAction(page: Page, name: string): Promise<void> {
  await page
    .locator(`[id="workbench.parts.sidebar"] .title-actions a.action-label[aria-label="${name}"]`)
    .click();
}

/** Opens the sidebar chat's list with the view title's Show Chats, and waits until it shows. */
export async function showChats(page: Page, frame: Frame): Promise<void> {
  await viewTitleAction(page, 'Show Chats');
  await frame.locator('#chat-list').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
}

/** Starts a new, empty chat with the view title's New Chat, so a test does not see earlier turns. */
export async function newChat(page: Page, frame: Frame): Promise<void> {
  const turns = frame.locator('section.turn');
  // The chat the view shows first: before its first snapshot any chat would pass for the new one.
  await frame.waitForFunction(() => Boolean(document.body.dataset.chatId), undefined, { timeout: UI_TIMEOUT });
  const shown = await frame.evaluate(() => document.body.dataset.chatId);
  await viewTitleAction(page, 'New Chat');
  // The new chat's snapshot brings its own (empty) draft: typing before it lands would be replaced.
  await frame.waitForFunction((before) => document.body.dataset.chatId !== before, shown, {
    timeout: UI_TIMEOUT,
  });
  await turns.first().waitFor({ state: 'detached', timeout: UI_TIMEOUT });
  // The view's title names the chat it shows.
  await viewTitle(page)
    .filter({ hasText: /: New chat$/ })
    .waitFor({ timeout: UI_TIMEOUT });
  // New Chat also brings the focus into the view, a trip through the window made beside the chat's change:
  // a key pressed before it lands (F1) opens a picker that the view's focus then closes. A person starts
  // once the caret is in the message box.
  await frame.waitForFunction(() => document.hasFocus(), undefined, { timeout: UI_TIMEOUT });
}

/**
 * Types `text` into the composer and presses Enter; resolves with the id of the new turn once it is on
 * screen (`timeout`: the agent opens the chat's session first), so later assertions address exactly that turn.
 */
export async function sendPrompt(frame: Frame, text: string, { timeout = UI_TIMEOUT } = {}): Promise<string> {
  const input = frame.locator('.composer-input');
  const turns = frame.locator('section.turn[data-turn-id]');
  const before = await turns.count();
  await input.click();
  await input.fill(text);
  await input.press('Enter');
  await frame.waitForFunction(
    (count) => document.querySelectorAll('section.turn[data-turn-id]').length > count,
    before,
    { timeout },
  );
  const turnId = await turns.last().getAttribute('data-turn-id');
  assert.ok(turnId, 'the new turn has no id');
  assert.equal(await input.inputValue(), '', 'the composer is emptied on send');
  return turnId;
}

/** The turn with `turnId`. */
export function turn(frame: Frame, turnId: string): Locator {
  return frame.locator(`section.turn[data-turn-id="${turnId}"]`);
}

/**
 * Waits until the turn shows `status` (`completed`, `cancelled`, `interrupted`, …) and its answer's text is
 * on the page in full: the markdown worker may still be laying out the last chunk as the status shows.
 */
export async function waitForTurnStatus(
  frame: Frame,
  turnId: string,
  status: string,
  { timeout = UI_TIMEOUT } = {},
): Promise<void> {
  try {
    await frame
      .locator(`section.turn[data-turn-id="${turnId}"][data-status="${status}"]`)
      .waitFor({ state: 'attached', timeout });
  } catch (error) {
    const actual = await turn(frame, turnId)
      .getAttribute('data-status', { timeout: 1_000 })
      .catch(() => '(turn not found)');
    throw new Error(`turn ${turnId} is "${actual}", not "${status}", after ${timeout} ms`, { cause: error });
  }
  await frame
    .locator('html:not([data-markdown="busy"])')
    .waitFor({ state: 'attached', timeout })
    .catch((error: unknown) => {
      throw new Error(`turn ${turnId} is "${status}", but its text was still being laid out after ${timeout} ms`, {
        cause: error,
      });
    });
}

/** The markdown of the turn's agent messages, as the user reads it (whitespace collapsed). */
export async function agentText(frame: Frame, turnId: string): Promise<string> {
  const texts = await turn(frame, turnId).locator('article.entry-agent .markdown').allTextContents();
  return collapse(texts.join(' '));
}

/** Waits until the turn's agent text is exactly `expected` (whitespace collapsed), else says what it was. */
export async function waitForAgentText(
  frame: Frame,
  turnId: string,
  expected: string,
  { timeout = UI_TIMEOUT } = {},
): Promise<void> {
  const want = collapse(expected);
  try {
    await frame.waitForFunction(
      ({ id, want }) => {
        const section = document.querySelector(`section.turn[data-turn-id="${id}"]`);
        const parts = [...(section?.querySelectorAll('article.entry-agent .markdown') ?? [])].map(
          (node) => node.textContent ?? '',
        );
        return parts.join(' ').replace(/\s+/g, ' ').trim() === want;
      },
      { id: turnId, want },
      { timeout, polling: 100 },
    );
  } catch (error) {
    const actual = await agentText(frame, turnId).catch(() => '(turn not found)');
    throw new Error(
      `agent text of turn ${turnId} is ${JSON.stringify(actual)}, want ${JSON.stringify(want)}`,
      {
        cause: error,
      },
    );
  }
}

export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A bigger window with a wider primary sidebar, for screenshots a person can read. Resizes the viewport,
 * then drags the sash on the sidebar's right edge until the sidebar is `sidebarWidth` px wide.
 */
export interface LayoutOptions {
  readonly width?: number;
  readonly height?: number;
  readonly sidebarWidth?: number;
}

export async function setLayout(
  page: Page,
  { width = 1600, height = 1000, sidebarWidth = 520 }: LayoutOptions = {},
): Promise<void> {
  await page.setViewportSize({ width, height });
  const sidebar = page.locator('[id="workbench.parts.sidebar"]');
  await sidebar.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  // The workbench lays itself out again after the window resize: wait until the sidebar's height follows.
  await page.waitForFunction(
    (h) => {
      const element = document.getElementById('workbench.parts.sidebar');
      return element !== null && element.getBoundingClientRect().height > h - 120;
    },
    height,
    // Setup, not an assertion: the first workbench of a fresh install (cold caches) lays out slowly.
    { timeout: 3 * UI_TIMEOUT },
  );
  for (let attempt = 0; attempt < 3; attempt++) {
    const box = await sidebar.boundingBox();
    assert.ok(box, 'the sidebar has no box');
    if (Math.abs(box.width - sidebarWidth) <= 4) {
      break;
    }
    const x = box.x + box.width;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + (sidebarWidth - box.width) / 2, y, { steps: 5 });
    await page.mouse.move(box.x + sidebarWidth, y, { steps: 5 });
    await page.mouse.up();
  }
  const box = await sidebar.boundingBox();
  assert.ok(
    box && Math.abs(box.width - sidebarWidth) <= 4,
    `the sidebar is ${box?.width} px wide, not ${sidebarWidth}`,
  );
  // Off every control, so no hover tooltip covers a screenshot.
  await page.mouse.move(width - 5, height / 2);
}

/**
 * Runs a command by its label from the command palette (F1), like a person does. A command that asks in
 * the same quick input (an input box) names what it asks (`asks`, part of the box's label): the palette
 * then turns into that box instead of closing.
 */
export async function runCommand(page: Page, label: string, { asks }: { asks?: string } = {}): Promise<void> {
  const input = await pickInQuickOpen(page, `>${label}`, label);
  const next = asks === undefined ? input : input.and(page.locator(`[aria-label*="${asks}"]`));
  await next.waitFor({ state: asks === undefined ? 'hidden' : 'visible', timeout: UI_TIMEOUT });
}

/** Opens a workspace file by name with Quick Open (F1, then the name without ">"), like a person does. */
export async function openFile(page: Page, name: string): Promise<void> {
  const input = await pickInQuickOpen(page, name, name);
  await input.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
  await page
    .locator('.tabs-container .tab.active', { hasText: name })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
}

/**
 * Opens the quick input (F1), types `query` and clicks the row named `name` exactly; resolves with the
 * quick input's box. F1 works with the focus in a webview too: webviews pass keybindings on to the workbench.
 */
async function pickInQuickOpen(page: Page, query: string, name: string): Promise<Locator> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await input.fill(query);
  const row = page
    .locator('.quick-input-widget .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(name)}$`) }) })
    .first();
  await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await row.click();
  return input;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A temporary folder inside the sample workspace (the agent may write only there); removed by dispose(). */
export class WorkspaceTempFolder {
  readonly path: string;

  constructor(name: string) {
    this.path = join(sampleWorkspace, `.e2e-${name}-${randomBytes(3).toString('hex')}`);
    mkdirSync(this.path, { recursive: true });
  }

  file(name: string): string {
    return join(this.path, name);
  }

  dispose(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}

/**
 * When the current test failed: prints the workbench's log lines (the first clue for a UI assertion) and
 * saves a screenshot as test-results/failed-<test title>.png.
 */
export async function reportFailure(
  context: Mocha.Context,
  workbench: () => RunningWorkbench | undefined,
): Promise<void> {
  const current = workbench();
  if (context.currentTest?.state !== 'failed' || !current) {
    return;
  }
  console.log(current.logs.map((log) => `    [workbench ${log.type}] ${log.text}`).join('\n'));
  const path = await screenshot(current.page, `failed-${context.currentTest.title}`).catch(() => undefined);
  if (path) {
    console.log(`    screenshot: ${path}`);
  }
}

/** `<repo>/docs`: screenshots the README shows (tracked; written only by `npm run screenshots`). */
export const docsDir = join(repoRoot, 'docs');

/**
 * Set by `npm run screenshots` (scripts/screenshots.mjs): only then do README pictures replace the tracked
 * docs/*.png. Any other run (npm test, CI, a single e2e file) leaves the work tree as it was.
 */
export const DOCS_SCREENSHOTS_ENV = 'ACP_DOCS_SCREENSHOTS';

/** Where README pictures go in this run: docs/, or the git-ignored test-results/docs/. */
export function docsScreenshotDir(): string {
  return process.env[DOCS_SCREENSHOTS_ENV] === '1' ? docsDir : join(repoRoot, 'test-results', 'docs');
}

/**
 * Saves a screenshot of the whole window for the README as <docsScreenshotDir()>/<name> (PNG) and returns
 * its path. The pointer is parked on the status bar's empty middle first, so no hover shows.
 */
export async function docsScreenshot(page: Page, name: string): Promise<string> {
  const dir = docsScreenshotDir();
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  const viewport = page.viewportSize();
  if (viewport) {
    await page.mouse.move(viewport.width / 2, viewport.height - 4);
  }
  await page.screenshot({ path, type: 'png', timeout: 30_000 });
  return path;
}
