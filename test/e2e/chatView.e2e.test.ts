import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { UI_TIMEOUT } from './support/chat';
import { hasRenderedApp, openAcpView, screenshot, webviewFrame } from './support/workbench';
import { useWorkbench } from './support/lifecycle';

describe('chat view in a real VS Code', () => {
  // The view is opened by the test itself, from the activity bar.
  const chat = useWorkbench({ openChat: false });

  it('opens from the activity bar and renders the chat UI', async () => {
    const { page } = chat;
    await openAcpView(page);
    const frame = await webviewFrame(page);
    // The webview script fills #app; an empty root means its bundle did not load or threw.
    const app = frame.locator('#app');
    await app.locator(':scope > *').first().waitFor({ state: 'attached', timeout: 15_000 });
    assert.ok((await app.evaluate((root) => root.childElementCount)) > 0, '#app is empty');
    assert.notEqual((await app.innerText()).trim(), '', '#app shows no text');
    const path = await screenshot(page, 'e2e-chat-view');
    assert.ok(existsSync(path));
  });

  it('keeps the chat page while the view is hidden: shown again, it is the same page with its draft', async () => {
    const { page } = chat;
    const frame = await webviewFrame(page, hasRenderedApp);
    // A mark only this page holds: a rebuilt page would not have it.
    await frame.evaluate(() => ((window as unknown as { keptMark?: string }).keptMark = 'still here'));
    await frame.locator('.composer-input').fill('a draft typed before hiding');
    const sidebar = page.locator('[id="workbench.parts.sidebar"]');
    // Ctrl+B (toggle the primary sidebar), with the focus in the workbench so that it gets the key.
    const toggleSidebar = async (): Promise<void> => {
      await page.locator('.part.statusbar').click({ position: { x: 600, y: 10 } });
      await page.keyboard.press('Control+b');
    };
    await toggleSidebar();
    await sidebar.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    await toggleSidebar();
    await sidebar.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await frame.locator('.composer-input').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(frame.isDetached(), false, 'the page was let go while hidden');
    assert.equal(
      await frame.evaluate(() => (window as unknown as { keptMark?: string }).keptMark),
      'still here',
    );
    assert.equal(await frame.locator('.composer-input').inputValue(), 'a draft typed before hiding');
    await screenshot(page, 'e2e-chat-view-shown-again');
  });
});
