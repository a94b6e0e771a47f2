/**
 * Issue 11 item 6: "ACP: Open Chat in Editor" puts the chat in an editor tab (the same webview as the
 * sidebar, kept in sync with it), and the tab comes back, showing the chat, after the window reloads.
 */
import { strict as assert } from 'node:assert';
import type { Frame, Page } from 'playwright-core';
import {
  openChat,
  reportFailure,
  runCommand,
  sendPrompt,
  turn,
  UI_TIMEOUT,
  waitForTurnStatus,
} from './support/chat';
import { hasRenderedApp, screenshot, startWorkbench, type RunningWorkbench } from './support/workbench';

/** The chat webview shown in the editor area: a rendered chat frame whose iframe lies in the editor part. */
async function editorChatFrame(page: Page, timeout = 60_000): Promise<Frame> {
  const deadline = Date.now() + timeout;
  const editorLeft = await page.locator('.part.editor').boundingBox();
  assert.ok(editorLeft, 'the editor area is visible');
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame() || frame.isDetached()) {
        continue;
      }
      const rendered = await hasRenderedApp(frame).catch(() => false);
      // Playwright gives a frame element's box relative to the page, also for nested webview frames.
      const element = rendered ? await frame.frameElement().catch(() => undefined) : undefined;
      const position = element ? await element.boundingBox() : null;
      if (position && position.width > 0 && position.x >= editorLeft.x - 1) {
        return frame;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('no chat webview in the editor area');
}

describe('the chat in an editor tab (real VS Code)', () => {
  let workbench: RunningWorkbench | undefined;
  let page: Page;

  before(async () => {
    workbench = await startWorkbench();
    page = workbench.page;
  });

  afterEach(async function () {
    await reportFailure(this, () => workbench);
  });

  after(async () => {
    await workbench?.stop();
  });

  it('opens the chat in a tab, mirrored with the sidebar, and restores the tab after a window reload', async () => {
    const sidebar = await openChat(page);
    const turnId = await sendPrompt(sidebar, 'hello from the editor tab test');
    await waitForTurnStatus(sidebar, turnId, 'completed');

    await runCommand(page, 'ACP: Open Chat in Editor');
    const tab = page.locator('.tabs-container .tab', { hasText: 'ACP Chat' });
    await tab.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    let editor = await editorChatFrame(page);
    await turn(editor, turnId).waitFor({ state: 'visible', timeout: UI_TIMEOUT });

    // A message sent from the tab shows in the sidebar too.
    const fromTab = await sendPrompt(editor, 'sent from the tab');
    await waitForTurnStatus(editor, fromTab, 'completed');
    await waitForTurnStatus(sidebar, fromTab, 'completed');
    await screenshot(page, 'e2e-chat-editor-tab');

    // The window's own reload: the workbench saves its editors (and so the tab) on the way out.
    const reloaded = page.waitForEvent('load', { timeout: 60_000 });
    await runCommand(page, 'Developer: Reload Window');
    await reloaded;
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
    await page
      .locator('.tabs-container .tab', { hasText: 'ACP Chat' })
      .waitFor({ state: 'visible', timeout: 60_000 });
    editor = await editorChatFrame(page);
    await turn(editor, turnId).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await turn(editor, fromTab).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(
      (await turn(editor, fromTab).locator('article.entry-user').innerText()).trim(),
      'sent from the tab',
    );
    await screenshot(page, 'e2e-chat-editor-tab-reloaded');
  });
});
