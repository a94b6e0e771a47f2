import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import {
  openAcpView,
  screenshot,
  startWorkbench,
  webviewFrame,
  type RunningWorkbench,
} from './support/workbench';

describe('chat view in a real VS Code', () => {
  let workbench: RunningWorkbench | undefined;

  before(async () => {
    workbench = await startWorkbench();
  });

  afterEach(function () {
    // What the extension host and workbench logged is the first clue when a UI assertion fails.
    if (this.currentTest?.state === 'failed' && workbench) {
      console.log(workbench.logs.map((log) => `    [workbench ${log.type}] ${log.text}`).join('\n'));
    }
  });

  after(async () => {
    await workbench?.stop();
  });

  it('opens from the activity bar and renders the chat UI', async () => {
    assert.ok(workbench);
    const { page } = workbench;
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
