/**
 * `acpAgents.edits.review: "ask"` in a real VS Code: an agent's file write opens the workbench's diff
 * editor with the proposal AND shows Keep/Undo in the chat; nothing is written until the user decides.
 * Keep (clicked in the chat) writes the file and the agent hears it was written; Undo leaves the file as it
 * was and the agent gets an error. Also makes the README's edit-review screenshot (docs/edit-review.png).
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, relative } from 'node:path';
import type { Locator } from 'playwright-core';
import { docsScreenshot, UI_TIMEOUT, waitForAgentText, WorkspaceTempFolder } from './support/chat';
import { sampleWorkspace, screenshot } from './support/workbench';
import { useWorkbench } from './support/lifecycle';

/** What the agent is told after a refusal's message (code -32001): the next step and `data.reason`. */
const DECLINED =
  'The user declined this; do not retry it as is — ask the user how to proceed. data {"reason":"user_declined"}';

describe('edit review with Keep/Undo in the chat (acpAgents.edits.review: ask)', () => {
  let folder: WorkspaceTempFolder;
  before(() => {
    folder = new WorkspaceTempFolder('review');
  });
  // Each test starts its own chat, so it passes alone and in any order.
  const chat = useWorkbench({
    settings: { 'acpAgents.edits.review': 'ask' },
    layout: { width: 1600, height: 1000, sidebarWidth: 520 },
    newChatEachTest: true,
  });
  after(() => {
    folder?.dispose();
  });

  /** The workbench's tab for the proposal of `file` (a diff editor). */
  function proposalTab(file: string): Locator {
    return chat.page.locator('.tabs-container .tab', { hasText: `${basename(file)}: agent's proposal` });
  }

  /** The chat's review card and its row for `file`. */
  function reviewRow(file: string): Locator {
    return chat.frame
      .locator('.reviews .review-row')
      .filter({ has: chat.frame.locator('.review-path', { hasText: relative(sampleWorkspace, file) }) });
  }

  /** Asks for `fs write`, waits until both the diff editor and the chat's Keep/Undo are shown. */
  async function proposeWrite(file: string, text: string, isNew: boolean): Promise<string> {
    const turnId = await chat.sendPrompt(`fs write ${file} ${text}`);
    const tab = proposalTab(file);
    await tab.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(
      (await tab.locator('.label-name').innerText()).trim(),
      `${basename(file)}: agent's proposal${isNew ? ' (new file)' : ''}`,
    );
    assert.equal(
      await tab.evaluate((element) => element.classList.contains('active')),
      true,
      'the diff is in front',
    );
    const diff = chat.page.locator('.editor-instance .monaco-diff-editor');
    await diff.waitFor({ state: 'visible', timeout: UI_TIMEOUT });

    const reviews = chat.frame.locator('.reviews');
    await reviews.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal((await reviews.locator('.reviews-title').innerText()).trim(), '1 edit to review');
    const row = reviewRow(file);
    assert.equal(await row.count(), 1);
    // Shown relative to the workspace, as VS Code shows paths; the full path is the tooltip.
    assert.equal((await row.locator('.review-path').innerText()).trim(), relative(sampleWorkspace, file));
    assert.equal(await row.locator('.review-path').getAttribute('title'), `Open ${file}`);
    assert.equal(
      await row.locator('.diff-badge').count(),
      isNew ? 1 : 0,
      isNew ? 'marked New' : 'not marked New',
    );
    assert.deepEqual(
      (await row.locator('vscode-button').allInnerTexts()).map((label) => label.trim()),
      ['Keep', 'Undo'],
    );
    // Waiting for the decision: the turn runs and the agent has said nothing yet.
    assert.equal(await chat.turn(turnId).getAttribute('data-status'), 'running');
    assert.equal(await chat.turn(turnId).locator('article.entry-agent').count(), 0);
    return turnId;
  }

  /** After a decision: the card and the diff tab are gone. */
  async function assertDecided(file: string): Promise<void> {
    await chat.frame.locator('.reviews').waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    await proposalTab(file).waitFor({ state: 'detached', timeout: UI_TIMEOUT });
  }

  it('writes a new file on Keep in the chat', async () => {
    const file = folder.file('greeting.md');
    const turnId = await proposeWrite(file, 'hello from the agent', true);
    // The proposal is in the diff's modified side; nothing is on disk yet.
    const diff = chat.page.locator('.editor-instance .monaco-diff-editor');
    await diff
      .locator('.modified .view-lines', { hasText: 'hello from the agent' })
      .waitFor({ timeout: UI_TIMEOUT });
    assert.equal(existsSync(file), false, 'nothing is written before the decision');
    await screenshot(chat.page, 'e2e-edit-review-new');

    await reviewRow(file).locator(`vscode-button[aria-label="Keep the edit to ${file}"]`).click();
    await chat.waitForAgentText(turnId, 'wrote 20 chars');
    await chat.waitForTurnStatus(turnId, 'completed');
    assert.equal(readFileSync(file, 'utf8'), 'hello from the agent');
    await assertDecided(file);
  });

  it('leaves the file unchanged on Undo in the chat and tells the agent', async () => {
    const file = folder.file('existing.md');
    writeFileSync(file, 'hello from the agent');
    const proposal = [
      '# Greeting',
      '',
      'hello from the agent',
      '',
      'Proposed by the agent: keep it or undo it.',
    ].join('\\n');
    const turnId = await proposeWrite(file, proposal, false);
    const diff = chat.page.locator('.editor-instance .monaco-diff-editor');
    await diff
      .locator('.original .view-lines', { hasText: 'hello from the agent' })
      .waitFor({ timeout: UI_TIMEOUT });
    await diff
      .locator('.modified .view-lines', { hasText: 'Proposed by the agent: keep it or undo it.' })
      .waitFor({
        timeout: UI_TIMEOUT,
      });
    await docsScreenshot(chat.page, 'edit-review.png');

    await reviewRow(file).locator(`vscode-button[aria-label="Undo the edit to ${file}"]`).click();
    await waitForAgentText(
      chat.frame,
      turnId,
      `write error -32001: The user rejected the edit to ${file}. ${DECLINED}`,
    );
    await chat.waitForTurnStatus(turnId, 'completed');
    assert.equal(readFileSync(file, 'utf8'), 'hello from the agent', 'the file is unchanged');
    await assertDecided(file);
  });
});
