/**
 * The agent asks (ACP elicitation) in a real VS Code: the demo agent's form appears above the composer, is
 * filled in and submitted from the chat, and the agent receives exactly the values typed; a URL question
 * declined in the chat opens nothing.
 */
import { strict as assert } from 'node:assert';
import type { Frame, Page } from 'playwright-core';
import {
  newChat,
  openChat,
  reportFailure,
  sendPrompt,
  UI_TIMEOUT,
  waitForAgentText,
  waitForTurnStatus,
} from './support/chat';
import { screenshot, startWorkbench, type RunningWorkbench } from './support/workbench';

describe('the agent asks for input (elicitation)', () => {
  let workbench: RunningWorkbench | undefined;
  let page: Page;
  let frame: Frame;

  before(async () => {
    workbench = await startWorkbench();
    page = workbench.page;
    frame = await openChat(page);
  });

  beforeEach(async () => {
    await newChat(page, frame);
  });

  afterEach(async function () {
    await reportFailure(this, () => workbench);
  });

  after(async () => {
    await workbench?.stop();
  });

  it('answers a form from the chat and the agent gets the values', async () => {
    const turnId = await sendPrompt(frame, 'elicit form');
    const form = frame.locator('form.elicitation-form');
    await form.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    // The form took the focus from the message just sent: typing goes straight into its first field
    // (fill() would focus the field itself and prove nothing).
    await frame.getByLabel('Project name').waitFor({ timeout: UI_TIMEOUT });
    await page.keyboard.type('web-app');
    assert.equal(await frame.getByLabel('Project name').inputValue(), 'web-app');
    assert.equal(await frame.locator('.composer-input').inputValue(), '', 'nothing went to the message box');
    await frame.getByLabel('Contact email').fill('dev@example.com');
    await frame.getByLabel('Region').selectOption('eu');
    await screenshot(page, 'elicitation-form-e2e');
    await form.getByRole('button', { name: 'Submit' }).click();
    await waitForTurnStatus(frame, turnId, 'completed');
    await waitForAgentText(
      frame,
      turnId,
      'elicitation accept {"name":"web-app","email":"dev@example.com","replicas":2,"region":"eu","notify":true}',
    );
    assert.equal(await form.count(), 0, 'the form went away');
  });

  it('declines a URL without opening it', async () => {
    const turnId = await sendPrompt(frame, 'elicit url https://example.com/signin');
    const card = frame.locator('.elicitation-url-card');
    await card.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.match(await card.innerText(), /example\.com/);
    await card.getByRole('button', { name: 'Decline' }).click();
    await waitForTurnStatus(frame, turnId, 'completed');
    await waitForAgentText(frame, turnId, 'elicitation decline');
    // The card went away with the focus in it: the focus is back in the message box, not on the page.
    await frame.waitForFunction(
      () => document.activeElement?.classList.contains('composer-input') === true,
      undefined,
      {
        timeout: UI_TIMEOUT,
      },
    );
  });

  it('cancels a page to open with Esc, and the focus goes back to the message box', async () => {
    const turnId = await sendPrompt(frame, 'elicit url https://example.com/signin');
    const card = frame.locator('.elicitation-url-card');
    await card.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    // It took the focus (its Open button): Esc goes to it.
    await frame.waitForFunction(
      () => document.activeElement?.closest('.elicitation-url-card') !== null,
      undefined,
      {
        timeout: UI_TIMEOUT,
      },
    );
    await page.keyboard.press('Escape');
    await waitForTurnStatus(frame, turnId, 'completed');
    await waitForAgentText(frame, turnId, 'elicitation cancel');
    await frame.waitForFunction(
      () => document.activeElement?.classList.contains('composer-input') === true,
      undefined,
      {
        timeout: UI_TIMEOUT,
      },
    );
  });
});
