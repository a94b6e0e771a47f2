/**
 * A first run in the real VS Code: the empty chat's **Add Agent…** opens the registry's list (served from
 * 127.0.0.1: a fixture index and a tar.gz holding a tiny node-script agent, built here), picking an agent
 * installs and starts it and it answers; an agent that needs a sign-in shows it before the first prompt;
 * Ctrl+Alt+Shift+A focuses the chat's message box.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { repoRoot } from '../../scripts/tools.mjs';
import { newChat, openChat, reportFailure, sendPrompt, UI_TIMEOUT, waitForAgentText } from './support/chat';
import {
  addFromEmptyState as addAgentFromEmptyState,
  serveFixtureRegistry,
  waitForEmptyChatWith,
  type FixtureRegistry,
} from './support/fixtureRegistry';
import { screenshot, startWorkbench, type RunningWorkbench } from './support/workbench';

describe('a first run: Add Agent from the empty chat (real VS Code)', () => {
  let workbench: RunningWorkbench | undefined;
  let page: Page;
  let frame: Frame;
  let registry: FixtureRegistry | undefined;

  before(async () => {
    registry = await serveFixtureRegistry([
      { id: 'tiny-e2e', name: 'Tiny agent', description: 'A node script that answers in chunks' },
      {
        id: 'tiny-login',
        name: 'Tiny agent with login',
        description: 'Needs a sign-in first',
        env: { TEST_AGENT_REQUIRE_AUTH: '1' },
      },
    ]);
    workbench = await startWorkbench({ settings: registry.settings });
    page = workbench.page;
    frame = await openChat(page);
  });

  afterEach(async function () {
    await reportFailure(this, () => workbench);
  });

  after(async () => {
    await workbench?.stop();
    registry?.close();
  });

  /** Clicks the empty chat's Add Agent…, picks `name` in the QuickPick. */
  function addFromEmptyState(name: string, shot?: string): Promise<void> {
    return addAgentFromEmptyState(page, frame, name, shot);
  }

  it('Add Agent… → pick → installed, started, and it answers', async () => {
    await addFromEmptyState('Tiny agent', 'add-agent');
    // Installed, added, selected: the empty chat now names it (its start may take a moment).
    await waitForEmptyChatWith(frame, 'Tiny agent');
    const turnId = await sendPrompt(frame, 'stream 2');
    await waitForAgentText(frame, turnId, 'chunk 1 chunk 2');
    await screenshot(page, 'add-agent-answered');
  });

  it('an agent that needs a sign-in says so before the first prompt, with its way to sign in', async () => {
    await newChat(page, frame);
    await addFromEmptyState('Tiny agent with login');
    const banner = frame.locator('.status-banner .agent-error[data-kind="auth_required"]');
    await banner.waitFor({ state: 'visible', timeout: 60_000 });
    assert.equal(await banner.locator('.error-title').innerText(), 'Sign in to Tiny agent with login');
    assert.equal(await frame.locator('section.turn[data-turn-id]').count(), 0, 'no turn was sent or failed');
    await screenshot(page, 'add-agent-sign-in');
    await banner.locator('vscode-button', { hasText: 'Sign in' }).click();
    await banner.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    const turnId = await sendPrompt(frame, 'stream 1');
    await waitForAgentText(frame, turnId, 'chunk 1');
  });

  it('a custom agent is offered its script’s name, and the name given is the one shown everywhere', async () => {
    await newChat(page, frame);
    const input = page.locator('.quick-input-widget input');
    await addFromEmptyState('Custom agent');
    // The command line: an interpreter running a script. The name offered is the script's.
    const script = path.join(repoRoot, 'dist', 'demo-agent.js');
    await page.locator('.quick-input-widget', { hasText: 'The command that starts the agent' }).waitFor({
      timeout: UI_TIMEOUT,
    });
    await input.fill(`node ${script}`);
    await input.press('Enter');
    await page.locator('.quick-input-widget', { hasText: 'Its name in the agent picker' }).waitFor({
      timeout: UI_TIMEOUT,
    });
    assert.equal(await input.inputValue(), 'demo-agent', 'named after the script, not "node"');
    await input.fill('My local agent');
    await screenshot(page, 'add-agent-custom-name');
    await input.press('Enter');
    // Selected and started: the empty chat, the message box and the status bar all use that name.
    await frame.waitForFunction(
      () =>
        document.querySelector('.empty-state .empty-title')?.textContent === 'Chat with My local agent' &&
        document
          .querySelector('.composer-input')
          ?.getAttribute('placeholder')
          ?.startsWith('Ask My local agent'),
      undefined,
      { timeout: 60_000 },
    );
    await page.locator('.statusbar-item', { hasText: 'My local agent: ready' }).waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('.statusbar-item', { hasText: 'Demo agent (offline)' }).count(), 0);
    await screenshot(page, 'add-agent-custom-ready');
  });

  /**
   * Runs `work` while VS Code cannot pass the focus on to the chat's frame. Under load it drops the focus it hands
   * on to a view's frame (its "focus" to the frame is sent only while its own state says focused, and a late
   * "blurred" resets that): its host page gets the focus, the chat's frame never does. Seen once in 30 presses
   * with the CPU busy; made certain here by taking away the frame's window.focus, the one call VS Code's host
   * page makes to pass the focus on.
   */
  async function withFrameFocusDropped(work: () => Promise<void>): Promise<void> {
    // Strings: a function made inside a function given to evaluate() would carry the test build's naming helper.
    await frame.evaluate(`(() => {
      window.acpRealFocus = Object.getOwnPropertyDescriptor(window, 'focus');
      Object.defineProperty(window, 'focus', { value() {}, configurable: true, writable: true });
    })()`);
    try {
      await work();
    } finally {
      await frame.evaluate(`Object.defineProperty(window, 'focus', window.acpRealFocus)`);
    }
    assert.equal(
      await frame.evaluate(() => Function.prototype.toString.call(window.focus).includes('[native code]')),
      true,
      'the frame’s own focus is back',
    );
  }

  /**
   * The editor has the focus, and nothing inside the chat (the message box would keep being the frame's active
   * element otherwise, and a check that it has the focus would prove nothing).
   */
  async function focusTheEditor(): Promise<void> {
    await frame.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.locator('.monaco-workbench .part.editor').click();
    assert.equal(
      await frame.evaluate(() => document.hasFocus()),
      false,
      'the chat has no focus to start with',
    );
    assert.equal(await frame.evaluate(() => document.activeElement === document.body), true);
  }

  /** The chat's frame has the focus, and in it the message box. */
  function waitForCursorInMessageBox(): Promise<unknown> {
    return frame.waitForFunction(
      () => document.hasFocus() && document.activeElement?.classList.contains('composer-input') === true,
      undefined,
      { timeout: UI_TIMEOUT },
    );
  }

  it('the key opens the chat with the cursor in the message box', async () => {
    await focusTheEditor();
    await page.keyboard.press('Control+Alt+Shift+A');
    await waitForCursorInMessageBox();
  });

  it('the key puts the cursor in the message box also when VS Code leaves the chat’s frame without the focus', async () => {
    await withFrameFocusDropped(async () => {
      await focusTheEditor();
      await page.keyboard.press('Control+Alt+Shift+A');
      await waitForCursorInMessageBox();
    });
  });

  it('a click on the agent in the status bar puts the cursor in the message box, also then', async () => {
    await withFrameFocusDropped(async () => {
      await focusTheEditor();
      await page.locator('.statusbar-item', { hasText: 'My local agent: ready' }).click();
      await waitForCursorInMessageBox();
    });
  });
});
