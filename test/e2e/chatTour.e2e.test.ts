/**
 * A tour of the chat with the offline demo agent in a real VS Code, the way the README shows it: the help
 * table, a plan, an edit allowed from the chat's own permission buttons and a command run in a terminal.
 * Each step is checked as the user sees it; the end result is the README screenshot docs/chat.png.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { docsScreenshot, UI_TIMEOUT } from './support/chat';
import { useWorkbench } from './support/lifecycle';

describe('a tour of the chat with the demo agent (README screenshot)', () => {
  // Each test starts its own chat, so it passes alone and in any order; hello.ts is something to look at
  // next to the chat in the screenshot.
  const chat = useWorkbench({
    layout: { width: 1600, height: 1000, sidebarWidth: 520 },
    openFiles: ['hello.ts'],
    newChatEachTest: true,
  });

  it('"help" answers with the table of what the demo agent can do', async () => {
    const turnId = await chat.sendPrompt('help');
    await chat.waitForTurnStatus(turnId, 'completed');
    const answer = chat.turn(turnId).locator('article.entry-agent .markdown');
    assert.match(
      await chat.agentText(turnId),
      /^I'm the offline demo agent: I answer without an account or a network/,
    );
    const firstColumn = await answer.locator('table tbody tr td:first-child').allInnerTexts();
    assert.ok(firstColumn.length >= 8, `the table has ${firstColumn.length} rows`);
    for (const word of ['tool', 'plan', 'terminal ls -la', 'hang']) {
      assert.ok(
        firstColumn.includes(word),
        `the table offers ${JSON.stringify(word)}: ${firstColumn.join(', ')}`,
      );
    }
  });

  it('"plan" shows the plan above the composer and ticks it off', async () => {
    const turnId = await chat.sendPrompt('plan');
    await chat.waitForAgentText(turnId, 'Plan updated.');
    await chat.waitForTurnStatus(turnId, 'completed');
    const plan = chat.frame.locator('.chat-footer .plan');
    await plan.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal((await plan.locator('.plan-progress').innerText()).trim(), '1/3');
    const items = await plan
      .locator('.plan-item')
      .evaluateAll((rows) =>
        rows.map((row) => [row.querySelector('.plan-text')?.textContent, row.getAttribute('data-status')]),
      );
    assert.deepEqual(items, [
      ['Read the code', 'completed'],
      ['Write the fix', 'in_progress'],
      ['Run tests', 'pending'],
    ]);
  });

  it('"terminal ls src" runs the command and the agent reports its output', async () => {
    const turnId = await chat.sendPrompt('terminal ls src');
    await chat.waitForAgentText(turnId, 'exit 0 hello.ts', { timeout: 30_000 });
    await chat.waitForTurnStatus(turnId, 'completed');
    const card = chat.turn(turnId).locator('.entry-tool .tool-card');
    assert.equal((await card.locator('.tool-title').innerText()).trim(), 'Run ls src');
    assert.equal(await card.getAttribute('data-status'), 'completed');
  });

  it('"tool" asks permission in the chat (README screenshot); "Allow once" there applies the edit', async () => {
    // Its own conversation for the README picture: the demo agent's help and a plan above the composer
    // while the agent asks.
    for (const prompt of ['help', 'plan']) {
      await chat.waitForTurnStatus(await chat.sendPrompt(prompt), 'completed');
    }
    const turnId = await chat.sendPrompt('tool');
    const card = chat.turn(turnId).locator('.entry-tool .tool-card');
    const permission = card.locator('.permission[data-status="pending"]');
    await permission.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal((await card.locator('.tool-title').innerText()).trim(), 'Edit README.md');
    assert.equal((await permission.locator('.permission-prompt').innerText()).trim(), 'Allow this action?');
    assert.deepEqual(
      (await permission.locator('vscode-button').allInnerTexts()).map((label) => label.trim()),
      ['Allow once', 'Always allow', 'Reject'],
    );
    // The diff the agent proposes is in the card.
    const diffText = await card.locator('.disclosure-body').innerText();
    assert.match(diffText, /# Sample project \(edited by the demo agent\)/);
    // Inline, not in a dialog (the default `auto` with the chat on screen).
    assert.equal(await chat.page.locator('.monaco-dialog-box').count(), 0);
    // The plan is still above the composer.
    await chat.frame.locator('.chat-footer .plan').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    // Cosmetic: no "Analyzing 'hello.ts'…" progress of the TypeScript server in the status bar.
    await chat.page
      .locator('.statusbar-item', { hasText: 'Analyzing' })
      .waitFor({ state: 'detached', timeout: 15_000 })
      .catch(() => {});
    await docsScreenshot(chat.page, 'chat.png');

    await permission.locator('vscode-button[data-option-kind="allow_once"]').click();
    await chat.waitForAgentText(turnId, 'Edit allowed (the demo writes nothing).');
    await chat.waitForTurnStatus(turnId, 'completed');
    assert.equal(await card.getAttribute('data-status'), 'completed');
    assert.equal((await card.locator('.permission-result.allowed').innerText()).trim(), 'Allow once');
  });

  it("a terminal's card shows the output live, then the whole output and the exit code", async () => {
    // The command runs until the test lets it end: its running state is looked at however slow the machine.
    const go = join(mkdtempSync(join(tmpdir(), 'acp-e2e-terminal-')), 'go');
    const command = `echo building; until [ -e ${go} ]; do sleep 0.1; done; echo done`;
    const turnId = await chat.sendPrompt(`terminal ${command}`);
    const card = chat.turn(turnId).locator('.entry-tool .tool-card');
    const terminal = card.locator('.terminal');
    // While it runs the card is open and shows what was printed so far.
    await terminal.locator('.terminal-output', { hasText: 'building' }).waitFor({ timeout: UI_TIMEOUT });
    assert.equal((await card.locator('.tool-title').innerText()).trim(), `Run ${command}`);
    assert.equal((await terminal.locator('.terminal-status').innerText()).trim(), 'Running');
    assert.equal(await terminal.getAttribute('data-state'), 'running');
    writeFileSync(go, '');

    await chat.waitForAgentText(turnId, 'exit 0 building done', { timeout: 30_000 });
    await chat.waitForTurnStatus(turnId, 'completed');
    rmSync(dirname(go), { recursive: true });
    // A finished card folds: open it, as a person does to look at the output.
    if ((await card.locator('.disclosure-header').getAttribute('aria-expanded')) !== 'true') {
      await card.locator('.disclosure-header').click();
    }
    await terminal.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    try {
      await terminal.locator('.terminal-status', { hasText: 'Exit code 0' }).waitFor({ timeout: UI_TIMEOUT });
    } catch {
      // Fall through to the assertions, which say what is shown instead.
    }
    assert.equal(
      (await terminal.locator('.terminal-status').innerText()).trim(),
      'Exit code 0',
      'the card shows how the command ended',
    );
    assert.equal(await terminal.getAttribute('data-state'), 'success');
    assert.equal((await terminal.locator('.terminal-output').innerText()).trim(), 'building\ndone');
  });
});
