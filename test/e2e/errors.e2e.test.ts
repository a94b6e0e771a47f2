/**
 * An error as the user sees it in a real VS Code: the demo agent fails a prompt with a JSON-RPC code and
 * `data`, and the failed turn's Details show both, exactly as the agent sent them and as text.
 */
import { strict as assert } from 'node:assert';
import { sendPrompt, UI_TIMEOUT } from './support/chat';
import { screenshot } from './support/workbench';
import { useWorkbench } from './support/lifecycle';

describe('errors keep their words in the chat view (real VS Code)', () => {
  const chat = useWorkbench();

  it("a failed turn shows the agent's code and data in Details", async () => {
    const turnId = await sendPrompt(
      chat.frame,
      'error -32603 Upstream failed data {"status":502,"body":"<b>bad gateway</b>"}',
    );
    await chat.waitForTurnStatus(turnId, 'failed');
    const error = chat.turn(turnId).locator('.turn-footer .agent-error');
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
    await screenshot(chat.workbench.page, 'e2e-error-details');
  });
});
