/**
 * `acpAgents.permissions.ask: "modal"`: an agent's permission request is asked in VS Code's own modal
 * dialog, even though the chat is on screen. The dialog is the workbench's (in the main page, not the
 * webview), carries the agent's options plus "Show diff" for an edit, and the button the user clicks is
 * the answer the agent gets (and the one the chat's tool card records).
 */
import { strict as assert } from 'node:assert';
import type { Locator } from 'playwright-core';
import { UI_TIMEOUT } from './support/chat';
import { screenshot } from './support/workbench';
import { useWorkbench } from './support/lifecycle';

describe('permission requests in a modal dialog (acpAgents.permissions.ask: modal)', () => {
  const chat = useWorkbench({ settings: { 'acpAgents.permissions.ask': 'modal' }, newChatEachTest: true });

  afterEach(async function () {
    // A dialog a failed test left open would block the next one: dismiss it (that answers Reject).
    const dialog = chat.page.locator('.monaco-dialog-box');
    if (await dialog.isVisible().catch(() => false)) {
      await chat.page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => {});
    }
  });

  /** Sends `tool`, waits for the workbench's modal dialog and checks what it asks. */
  async function askForEdit(): Promise<{ turnId: string; dialog: Locator }> {
    const turnId = await chat.sendPrompt('tool');
    const dialog = chat.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(await dialog.count(), 1, 'one dialog');
    assert.equal(await dialog.getAttribute('aria-modal'), 'true');
    assert.equal(
      (await dialog.locator('.dialog-message-text').innerText()).trim(),
      'The agent asks permission: Edit README.md',
    );
    const detail = (await dialog.locator('.dialog-message-detail').innerText()).trim();
    assert.match(detail, /README\.md:1$/m, 'the detail names the file and line');
    assert.match(detail, /^Edits .*README\.md$/m, 'the detail says which file the diff edits');
    // The agent's options, "Show diff" for an edit and the workbench's own Cancel. The workbench orders
    // the buttons by platform convention (on Linux the first choice, the primary, sits on the right).
    assert.deepEqual((await buttonLabels(dialog)).sort(), [
      'Allow once',
      'Always allow',
      'Cancel',
      'Reject',
      'Show diff',
    ]);
    assert.equal(
      (await dialog.locator('.dialog-buttons .monaco-button:not(.secondary)').allInnerTexts())
        .map((l) => l.trim())
        .join(),
      'Allow once',
      'the first option is the primary button',
    );
    // The chat shows the same request as waiting; the dialog above it is where it is answered.
    const card = chat.turn(turnId).locator('.entry-tool');
    await card.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal((await card.locator('.tool-title').innerText()).trim(), 'Edit README.md');
    assert.equal(await card.locator('.permission').getAttribute('data-status'), 'pending');
    assert.equal(await chat.turn(turnId).getAttribute('data-status'), 'running');
    return { turnId, dialog };
  }

  it('asks in the workbench dialog and applies the edit on "Allow once"', async () => {
    const { turnId, dialog } = await askForEdit();
    await screenshot(chat.page, 'e2e-permission-modal');

    await dialogButton(dialog, 'Allow once').click();
    await dialog.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    await chat.waitForAgentText(turnId, 'Edit allowed (the demo writes nothing).');
    await chat.waitForTurnStatus(turnId, 'completed');
    const card = chat.turn(turnId).locator('.entry-tool .tool-card');
    assert.equal(await card.getAttribute('data-status'), 'completed');
    // The dialog's answer is what the chat records.
    assert.equal((await card.locator('.permission-result.allowed').innerText()).trim(), 'Allow once');
    assert.equal(await chat.agentText(turnId), 'Edit allowed (the demo writes nothing).');
  });

  it('tells the agent "no" on "Reject"', async () => {
    const { turnId, dialog } = await askForEdit();

    await dialogButton(dialog, 'Reject').click();
    await dialog.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    await chat.waitForAgentText(turnId, 'Edit rejected.');
    await chat.waitForTurnStatus(turnId, 'completed');
    const card = chat.turn(turnId).locator('.entry-tool .tool-card');
    assert.equal(await card.getAttribute('data-status'), 'failed');
    assert.equal((await card.locator('.permission-result.rejected').innerText()).trim(), 'Reject');
    assert.equal(await chat.agentText(turnId), 'Edit rejected.');
  });

  it('"Show diff" opens the proposed edit and asks again; closing the dialog rejects', async () => {
    const { turnId, dialog } = await askForEdit();

    await dialogButton(dialog, 'Show diff').click();
    const tab = chat.page.locator('.tabs-container .tab', { hasText: 'README.md: proposed edit' });
    await tab.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    const diff = chat.page.locator('.editor-instance .monaco-diff-editor');
    await diff.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    // A change to a line the README has: its first one gets a note.
    await diff
      .locator('.modified .view-lines', { hasText: '# Sample project (edited by the demo agent)' })
      .waitFor({ timeout: UI_TIMEOUT });
    await diff
      .locator('.original .view-lines', { hasText: '# Sample project' })
      .waitFor({ timeout: UI_TIMEOUT });
    // The same question comes back over the diff.
    await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(
      (await dialog.locator('.dialog-message-text').innerText()).trim(),
      'The agent asks permission: Edit README.md',
    );
    assert.equal(await chat.turn(turnId).getAttribute('data-status'), 'running');

    // Escape dismisses the dialog: the agent is told "Reject" rather than left waiting.
    await chat.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    await chat.waitForAgentText(turnId, 'Edit rejected.');
    await chat.waitForTurnStatus(turnId, 'completed');
    const card = chat.turn(turnId).locator('.entry-tool .tool-card');
    assert.equal((await card.locator('.permission-result.rejected').innerText()).trim(), 'Reject');
  });
});

async function buttonLabels(dialog: Locator): Promise<string[]> {
  const labels = await dialog.locator('.dialog-buttons .monaco-button').allInnerTexts();
  return labels.map((label) => label.trim()).filter((label) => label !== '');
}

function dialogButton(dialog: Locator, label: string): Locator {
  return dialog.locator('.dialog-buttons .monaco-button').filter({ hasText: new RegExp(`^${label}$`) });
}
