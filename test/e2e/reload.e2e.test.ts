/**
 * A chat survives reloads in a real VS Code. Reloading only the webview ("Developer: Reload Webviews") in
 * the middle of a streamed answer brings back the transcript so far and the answer keeps streaming to its
 * end. Reloading the whole window restarts the extension host: the chat comes back from its journal with
 * the earlier turns, and the answer that was cut off keeps its partial text, marked as interrupted.
 */
import { strict as assert } from 'node:assert';
import { openChat, runCommand, UI_TIMEOUT } from './support/chat';
import { hasRenderedApp, screenshot, webviewFrame } from './support/workbench';
import { useWorkbench } from './support/lifecycle';

/** `chunk 1 chunk 2 … chunk n ` — what `stream n …` says. */
function chunks(n: number): string {
  return Array.from({ length: n }, (_, i) => `chunk ${i + 1} `).join('');
}

/** How many chunks a (whitespace-collapsed) partial answer holds. */
function chunkCount(text: string): number {
  return text.match(/chunk \d+/g)?.length ?? 0;
}

describe('the chat across reloads (real VS Code)', () => {
  const chat = useWorkbench({ newChatEachTest: true });

  /** Waits until the turn's answer holds at least `n` chunks and returns what it shows then. */
  async function waitForChunks(turnId: string, n: number, timeout = UI_TIMEOUT): Promise<string> {
    await chat
      .turn(turnId)
      .locator('article.entry-agent .markdown', { hasText: `chunk ${n} ` })
      .waitFor({ state: 'attached', timeout });
    return chat.agentText(turnId);
  }

  it('keeps streaming into the chat after "Developer: Reload Webviews"', async () => {
    const full = chunks(200);
    const turnId = await chat.sendPrompt('stream 200 delay 100');
    const before = await waitForChunks(turnId, 10);
    assert.ok(full.startsWith(before), `${JSON.stringify(before)} is not a prefix of the answer`);

    // Mark the current document: the reloaded view is the frame without the mark.
    await chat.frame.evaluate(() => Object.assign(window, { e2eBeforeReload: true }));
    await runCommand(chat.page, 'Developer: Reload Webviews');
    chat.frame = await webviewFrame(
      chat.page,
      async (candidate) =>
        (await hasRenderedApp(candidate)) && !(await candidate.evaluate(() => 'e2eBeforeReload' in window)),
      { timeout: 30_000 },
    );

    // Everything said so far is back, in the same turn, still running with Stop offered.
    const userBubble = chat.turn(turnId).locator('article.entry-user');
    await userBubble.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal((await userBubble.innerText()).trim(), 'stream 200 delay 100');
    const restored = await waitForChunks(turnId, chunkCount(before));
    assert.ok(
      restored.startsWith(before),
      `after the reload the chat shows ${JSON.stringify(restored.slice(0, 80))}…`,
    );
    assert.ok(full.startsWith(restored), 'the restored text is a prefix of the answer');
    assert.equal(await chat.turn(turnId).getAttribute('data-status'), 'running');
    await chat.frame.locator('.composer .stop-button').waitFor({ state: 'visible', timeout: UI_TIMEOUT });

    // It keeps growing in the reloaded view, to the very end.
    const later = await waitForChunks(turnId, chunkCount(restored) + 5);
    assert.ok(later.length > restored.length && full.startsWith(later));
    await chat.waitForAgentText(turnId, full, { timeout: 60_000 });
    await chat.waitForTurnStatus(turnId, 'completed');
    assert.equal(await chat.turn(turnId).locator('article.entry-agent').count(), 1, 'one answer, not two');
    await chat.frame.locator('.composer .send-button').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  });

  it('after a window reload shows the earlier turns and the cut-off answer as interrupted', async () => {
    // An earlier, finished turn of its own, which the window reload must bring back from the journal.
    const firstTurnId = await chat.sendPrompt('stream 20');
    await chat.waitForTurnStatus(firstTurnId, 'completed');
    const full = chunks(100);
    const turnId = await chat.sendPrompt('stream 100 delay 200');
    const seen = await waitForChunks(turnId, 5);
    // A few more chunks, so what was on screen has surely been checkpointed to the journal (every 0.5 s).
    await waitForChunks(turnId, chunkCount(seen) + 8);
    assert.equal(await chat.turn(turnId).getAttribute('data-status'), 'running');

    await chat.page.reload({ waitUntil: 'domcontentloaded', timeout: 60_000 });
    await chat.page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
    chat.frame = await openChat(chat.page);

    // The earlier turn, complete, from the journal.
    const first = chat.turn(firstTurnId);
    await first.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(await first.getAttribute('data-status'), 'completed');
    assert.equal(await chat.agentText(firstTurnId), collapseChunks(20));

    // The cut-off turn: its partial answer (at least what was on screen well before the reload), marked
    // as interrupted with a way to send it again.
    await chat.waitForTurnStatus(turnId, 'interrupted');
    const partial = await chat.agentText(turnId);
    assert.ok(partial.startsWith(seen), `the partial answer ${JSON.stringify(partial)} lost what was shown`);
    assert.ok(full.startsWith(partial) && partial.length < full.trim().length, 'a true prefix of the answer');
    assert.equal(
      (await chat.turn(turnId).locator('article.entry-user').innerText()).trim(),
      'stream 100 delay 200',
    );
    const error = chat.turn(turnId).locator('.turn-footer .agent-error');
    await error.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal((await error.locator('.error-title').innerText()).trim(), 'Agent exited');
    assert.equal(
      (await error.locator('.error-message').innerText()).trim(),
      'VS Code closed during the answer.',
    );
    assert.deepEqual(
      (await error.locator('.error-actions vscode-button').allInnerTexts()).map((label) => label.trim()),
      ['Restart', 'Retry'],
    );
    // Nothing runs any more: Send is back.
    await chat.frame.locator('.composer .send-button').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(await chat.frame.locator('.composer .stop-button').isVisible(), false);
    await screenshot(chat.page, 'e2e-reload-interrupted');
  });
});

function collapseChunks(n: number): string {
  return chunks(n).trim();
}
