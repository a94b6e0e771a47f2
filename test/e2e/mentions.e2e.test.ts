/**
 * Issue 11 as a user does it in a real VS Code: type "@hel" in the composer, pick hello.ts from the
 * picker with the keyboard, send — the demo agent receives the file as an embedded resource, and the
 * sent message shows the mention as a link chip.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UI_TIMEOUT, waitForAgentText } from './support/chat';
import { sampleWorkspace } from './support/workbench';
import { useWorkbench } from './support/lifecycle';

describe('@-mentions in the chat view (real VS Code)', () => {
  const chat = useWorkbench({ newChatEachTest: true });

  it('type @hel, pick hello.ts, send: the agent receives the file', async () => {
    const hello = join(sampleWorkspace, 'src', 'hello.ts');
    const uri = pathToFileURL(hello).href;
    const input = chat.frame.locator('.composer-input');
    await input.click();
    await input.pressSequentially('What does @hel');
    const first = chat.frame.locator('.mention-item').first();
    await first
      .locator('.mention-label')
      .filter({ hasText: /^hello\.ts$/ })
      .waitFor({ timeout: UI_TIMEOUT });
    assert.equal(await first.locator('.mention-detail').textContent(), 'src/hello.ts');
    await input.press('Enter');
    assert.equal(await input.inputValue(), 'What does @hello.ts ');
    assert.equal(await chat.frame.locator('.composer-chip .chip-label').textContent(), 'hello.ts');
    await input.pressSequentially('return?');
    const turns = chat.frame.locator('section.turn[data-turn-id]');
    const before = await turns.count();
    await input.press('Enter');
    await chat.frame.waitForFunction(
      (count) => document.querySelectorAll('section.turn[data-turn-id]').length > count,
      before,
      {
        timeout: UI_TIMEOUT,
      },
    );
    const turnId = await turns.last().getAttribute('data-turn-id');
    assert.ok(turnId);
    await chat.waitForTurnStatus(turnId, 'completed');
    const chars = readFileSync(hello, 'utf8').length;
    await waitForAgentText(
      chat.frame,
      turnId,
      `You said: What does @hello.ts return? resource ${uri} (${chars} chars)`,
    );
    const chip = chat.turn(turnId).locator('article.entry-user .chip');
    assert.match((await chip.first().textContent()) ?? '', /hello\.ts/);
    assert.equal(
      await chip.first().evaluate((element) => element.tagName),
      'BUTTON',
      'the mention is a link',
    );
  });
});
