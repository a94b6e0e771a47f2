/**
 * A streamed answer as the user sees it in a real VS Code: the demo agent's reply grows chunk by chunk in
 * the chat while the composer offers Stop, ends as exactly what the agent sent, and a turn stopped with
 * the Stop button ends as "Cancelled".
 */
import { strict as assert } from 'node:assert';
import type { Frame } from 'playwright-core';
import {
  agentText,
  newChat,
  openChat,
  reportFailure,
  sendPrompt,
  turn,
  UI_TIMEOUT,
  waitForAgentText,
  waitForTurnStatus,
} from './support/chat';
import { screenshot, startWorkbench, type RunningWorkbench } from './support/workbench';

describe('streaming in the chat view (real VS Code)', () => {
  let workbench: RunningWorkbench | undefined;
  let frame: Frame;

  before(async () => {
    workbench = await startWorkbench();
    frame = await openChat(workbench.page);
  });

  // Each test starts its own chat, so it passes alone and in any order (the window is shared: it is slow
  // to start, and holds no state a test relies on).
  beforeEach(async () => {
    await newChat(frame);
  });

  afterEach(async function () {
    await reportFailure(this, () => workbench);
  });

  after(async () => {
    await workbench?.stop();
  });

  it('shows the answer growing while it streams, with Stop, and ends with exactly what was sent', async () => {
    const expected = Array.from({ length: 40 }, (_, i) => `chunk ${i + 1} `).join('');
    const stop = frame.locator('.composer .stop-button');
    const send = frame.locator('.composer .send-button');
    assert.equal(await stop.isVisible(), false, 'no Stop before a turn runs');

    const turnId = await sendPrompt(frame, 'stream 40 delay 100');
    await stop.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(await send.isVisible(), false, 'Send is replaced by Stop while the agent works');
    assert.equal(await turn(frame, turnId).getAttribute('data-status'), 'running');
    assert.equal(await frame.locator('.composer-hint').textContent(), 'Demo agent (offline) is working…');

    // Two different partial texts, both true prefixes of the final answer: it is rendered as it arrives.
    const partial = async (longerThan: number): Promise<string> => {
      await frame.waitForFunction(
        ({ id, longerThan, full }) => {
          const text = [
            ...(document
              .querySelector(`section.turn[data-turn-id="${id}"]`)
              ?.querySelectorAll('article.entry-agent .markdown') ?? []),
          ]
            .map((node) => node.textContent ?? '')
            .join(' ')
            .replace(/\s+/g, ' ')
            .trim();
          return text.length > longerThan && text.length < full;
        },
        { id: turnId, longerThan, full: expected.trim().length },
        { timeout: UI_TIMEOUT, polling: 50 },
      );
      return agentText(frame, turnId);
    };
    const first = await partial(0);
    const second = await partial(first.length);
    assert.ok(
      second.length > first.length,
      `${JSON.stringify(second)} is not longer than ${JSON.stringify(first)}`,
    );
    for (const text of [first, second]) {
      assert.ok(expected.startsWith(text), `${JSON.stringify(text)} is not a prefix of the answer`);
      assert.match(text, /^chunk 1\b/);
    }
    assert.equal(await stop.isVisible(), true, 'Stop stays while the answer streams');

    await waitForAgentText(frame, turnId, expected);
    await waitForTurnStatus(frame, turnId, 'completed');
    assert.equal(await agentText(frame, turnId), expected.trimEnd());
    // Exactly one agent message, the whole answer, and no footer note on a normal end.
    assert.equal(await turn(frame, turnId).locator('article.entry-agent').count(), 1);
    assert.equal((await turn(frame, turnId).locator('.turn-footer').innerText()).trim(), '');
    await send.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(await stop.isVisible(), false, 'Stop is gone once the turn ended');
  });

  it('stops a hanging turn with the Stop button and shows it Cancelled', async () => {
    assert.ok(workbench);
    const stop = frame.locator('.composer .stop-button');
    const turnId = await sendPrompt(frame, 'hang');
    await waitForAgentText(frame, turnId, 'waiting');
    await stop.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(await turn(frame, turnId).getAttribute('data-status'), 'running');
    await screenshot(workbench.page, 'e2e-streaming-hang');

    await stop.click();
    await waitForTurnStatus(frame, turnId, 'cancelled');
    const footer = turn(frame, turnId).locator('.turn-footer .turn-cancelled');
    await footer.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal((await footer.innerText()).trim(), 'Cancelled');
    // What was said before the cancel stays; the composer takes a new message again.
    assert.equal(await agentText(frame, turnId), 'waiting');
    await frame.locator('.composer .send-button').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(await stop.isVisible(), false);
    assert.equal(await frame.locator('.composer-hint').textContent(), '');
  });
});
