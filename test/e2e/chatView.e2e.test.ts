import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { openAcpView, screenshot, webviewFrame } from './support/workbench';
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
});
