/**
 * Issue 11 as a user does it in a real VS Code: type "@hel" in the composer, pick hello.ts from the
 * picker with the keyboard, send — the demo agent receives the file as an embedded resource, and the
 * sent message shows the mention as a link chip.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Frame } from 'playwright-core';
import {
  newChat,
  openChat,
  reportFailure,
  turn,
  UI_TIMEOUT,
  waitForAgentText,
  waitForTurnStatus,
} from './support/chat';
import { sampleWorkspace, startWorkbench, type RunningWorkbench } from './support/workbench';

describe('@-mentions in the chat view (real VS Code)', () => {
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

  it('type @hel, pick hello.ts, send: the agent receives the file', async () => {
    const hello = join(sampleWorkspace, 'src', 'hello.ts');
    const uri = pathToFileURL(hello).href;
    const input = frame.locator('.composer-input');
    await input.click();
    await input.pressSequentially('What does @hel');
    const first = frame.locator('.mention-item').first();
    await first
      .locator('.mention-label')
      .filter({ hasText: /^hello\.ts$/ })
      .waitFor({ timeout: UI_TIMEOUT });
    assert.equal(await first.locator('.mention-detail').textContent(), 'src/hello.ts');
    await input.press('Enter');
    assert.equal(await input.inputValue(), 'What does @hello.ts ');
    assert.equal(await frame.locator('.composer-chip .chip-label').textContent(), 'hello.ts');
    await input.pressSequentially('return?');
    const turns = frame.locator('section.turn[data-turn-id]');
    const before = await turns.count();
    await input.press('Enter');
    await frame.waitForFunction(
      (count) => document.querySelectorAll('section.turn[data-turn-id]').length > count,
      before,
      {
        timeout: UI_TIMEOUT,
      },
    );
    const turnId = await turns.last().getAttribute('data-turn-id');
    assert.ok(turnId);
    await waitForTurnStatus(frame, turnId, 'completed');
    const chars = readFileSync(hello, 'utf8').length;
    await waitForAgentText(
      frame,
      turnId,
      `You said: What does @hello.ts return? resource ${uri} (${chars} chars)`,
    );
    const chip = turn(frame, turnId).locator('article.entry-user .chip');
    assert.match((await chip.first().textContent()) ?? '', /hello\.ts/);
    assert.equal(
      await chip.first().evaluate((element) => element.tagName),
      'BUTTON',
      'the mention is a link',
    );
  });
});
