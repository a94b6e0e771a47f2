/**
 * A streamed answer as the user sees it in a real VS Code: the demo agent's reply grows chunk by chunk in
 * the chat while the composer offers Stop, ends as exactly what the agent sent, and a turn stopped with
 * the Stop button ends as "Cancelled".
 */
import { strict as assert } from 'node:assert';
import { UI_TIMEOUT } from './support/chat';
import { screenshot } from './support/workbench';
import { useWorkbench } from './support/lifecycle';

describe('streaming in the chat view (real VS Code)', () => {
  const chat = useWorkbench({ newChatEachTest: true });

  it('shows the answer growing while it streams, with Stop, and ends with exactly what was sent', async () => {
    const expected = Array.from({ length: 40 }, (_, i) => `chunk ${i + 1} `).join('');
    const stop = chat.frame.locator('.composer .stop-button');
    const send = chat.frame.locator('.composer .send-button');
    assert.equal(await stop.isVisible(), false, 'no Stop before a turn runs');

    const turnId = await chat.sendPrompt('stream 40 delay 100');
    await stop.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(await send.isVisible(), false, 'Send is replaced by Stop while the agent works');
    assert.equal(await chat.turn(turnId).getAttribute('data-status'), 'running');
    assert.equal(
      await chat.frame.locator('.composer-hint').textContent(),
      'Demo agent (offline) is working…',
    );

    // Two different partial texts, both true prefixes of the final answer: it is rendered as it arrives.
    const partial = async (longerThan: number): Promise<string> => {
      await chat.frame.waitForFunction(
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
      return chat.agentText(turnId);
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

    await chat.waitForAgentText(turnId, expected);
    await chat.waitForTurnStatus(turnId, 'completed');
    assert.equal(await chat.agentText(turnId), expected.trimEnd());
    // Planned off the page's main thread: VS Code's webview let the page start its markdown worker.
    assert.equal(
      await chat.frame.evaluate(() => document.documentElement.dataset.markdownWorker),
      'ready',
      'the markdown worker runs in VS Code’s webview',
    );
    // Exactly one agent message, the whole answer, and no footer note on a normal end.
    assert.equal(await chat.turn(turnId).locator('article.entry-agent').count(), 1);
    assert.equal(await chat.turn(turnId).locator('.turn-footer').count(), 0);
    await send.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(await stop.isVisible(), false, 'Stop is gone once the turn ended');
  });

  it('stops a hanging turn with the Stop button and shows it Cancelled', async () => {
    const stop = chat.frame.locator('.composer .stop-button');
    const turnId = await chat.sendPrompt('hang');
    await chat.waitForAgentText(turnId, 'waiting');
    await stop.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(await chat.turn(turnId).getAttribute('data-status'), 'running');
    await screenshot(chat.workbench.page, 'e2e-streaming-hang');

    await stop.click();
    await chat.waitForTurnStatus(turnId, 'cancelled');
    const footer = chat.turn(turnId).locator('.turn-footer .turn-cancelled');
    await footer.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal((await footer.innerText()).trim(), 'Cancelled');
    // What was said before the cancel stays; the composer takes a new message again.
    assert.equal(await chat.agentText(turnId), 'waiting');
    await chat.frame.locator('.composer .send-button').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(await stop.isVisible(), false);
    assert.equal(await chat.frame.locator('.composer-hint').textContent(), '');
  });
});
