/**
 * An error as the user sees it in a real VS Code: the demo agent fails a prompt with a JSON-RPC code and
 * `data`, and the failed turn's Details show both, exactly as the agent sent them and as text.
 */
import { strict as assert } from 'node:assert';
import type { Frame } from 'playwright-core';
import { openChat, reportFailure, sendPrompt, turn, UI_TIMEOUT, waitForTurnStatus } from './support/chat';
import { screenshot, startWorkbench, type RunningWorkbench } from './support/workbench';

describe('errors keep their words in the chat view (real VS Code)', () => {
  let workbench: RunningWorkbench | undefined;
  let frame: Frame;

  before(async () => {
    workbench = await startWorkbench();
    frame = await openChat(workbench.page);
  });

  afterEach(async function () {
    await reportFailure(this, () => workbench);
  });

  after(async () => {
    await workbench?.stop();
  });

  it("a failed turn shows the agent's code and data in Details", async () => {
    assert.ok(workbench);
    const turnId = await sendPrompt(
      frame,
      'error -32603 Upstream failed data {"status":502,"body":"<b>bad gateway</b>"}',
    );
    await waitForTurnStatus(frame, turnId, 'failed');
    const error = turn(frame, turnId).locator('.turn-footer .agent-error');
    await error.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal((await error.locator('.error-message').innerText()).trim(), 'Upstream failed (code -32603)');

    const header = error.locator('.error-details .disclosure-header');
    assert.equal(await header.getAttribute('aria-expanded'), 'false');
    await header.click();
    assert.equal(await header.getAttribute('aria-expanded'), 'true');
    assert.equal(await error.locator('.error-code').textContent(), '-32603 (Internal error)');
    assert.equal(
      await error.locator('.error-data').textContent(),
      '{\n  "status": 502,\n  "body": "<b>bad gateway</b>"\n}',
    );
    assert.equal(await error.locator('.error-data b').count(), 0, 'the data is text, not markup');
    await screenshot(workbench.page, 'e2e-error-details');
  });
});
