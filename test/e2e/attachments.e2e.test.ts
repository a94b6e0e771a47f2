/**
 * Issue 11, attaching files as a user does it in a real VS Code: the composer's paperclip opens VS Code's
 * own file dialog (code-server's "simple" dialog, a quick input taking a path), the picked file becomes a
 * chip, and the demo agent receives it as an embedded resource; Shift-dragging a file from the Explorer onto
 * the chat (in an editor tab, beside the Explorer) attaches it the same way.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Frame, Locator } from 'playwright-core';
import {
  editorChatFrame,
  openChat,
  runCommand,
  sendPrompt,
  UI_TIMEOUT,
  waitForAgentText,
  waitForTurnStatus,
} from './support/chat';
import { sampleWorkspace } from './support/workbench';
import { useWorkbench } from './support/lifecycle';

describe('attaching files in the chat view (real VS Code)', () => {
  const chat = useWorkbench({ newChatEachTest: true });

  afterEach(async function () {
    // A dialog a failed test left open would take the next test's keys.
    const input = chat.page.locator('.quick-input-widget .quick-input-box input');
    if (await input.isVisible()) {
      await input.press('Escape');
    }
  });

  /**
   * Clicks the paperclip and returns VS Code's file dialog (the workbench's, outside the webview) once it
   * has settled on the workspace folder: it fills in its starting path and listing after it shows, and a
   * path typed before that is overwritten.
   */
  async function openAttachDialog(): Promise<Locator> {
    await chat.frame.getByRole('button', { name: 'Attach files' }).click();
    const dialog = chat.page.locator('.quick-input-widget');
    await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.match(
      (await dialog.locator('.quick-input-title').textContent()) ?? '',
      /Attach files to the message/,
    );
    await chat.page.waitForFunction(
      (folder) =>
        document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input')?.value ===
        folder,
      `${sampleWorkspace}/`,
      { timeout: UI_TIMEOUT },
    );
    await dialog
      .locator('.monaco-list-row', { hasText: 'README.md' })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    return dialog;
  }

  /** Sends what is on the composer of `view` with `text`; returns the turn's id once it completed. */
  async function sendWithText(text: string, view: Frame = chat.frame): Promise<string> {
    const turnId = await sendPrompt(view, text);
    await waitForTurnStatus(view, turnId, 'completed');
    return turnId;
  }

  it("the paperclip opens VS Code's file dialog; the picked file reaches the agent", async () => {
    const hello = join(sampleWorkspace, 'src', 'hello.ts');
    const dialog = await openAttachDialog();
    const path = dialog.locator('.quick-input-box input');
    await path.fill(hello);
    // The dialog follows a typed path into its folder (asynchronously); once it lists the file, the
    // dialog's own button takes the path.
    await dialog
      .locator('.monaco-list-row', { hasText: 'hello.ts' })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await dialog.getByRole('button', { name: 'Attach' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });

    const chip = chat.frame.locator('.composer-chip .chip-label');
    await chip.filter({ hasText: /^hello\.ts$/ }).waitFor({ timeout: UI_TIMEOUT });

    const turnId = await sendWithText('What is in it?');
    const chars = readFileSync(hello, 'utf8').length;
    await waitForAgentText(
      chat.frame,
      turnId,
      `You said: What is in it? resource ${pathToFileURL(hello).href} (${chars} chars)`,
    );
  });

  it('a dismissed dialog attaches nothing', async () => {
    const dialog = await openAttachDialog();
    await dialog.locator('.quick-input-box input').press('Escape');
    await dialog.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    // The host answers a dismissal with the composer's attachments unchanged: give it the round trip a pick
    // takes by sending a message, which carries whatever is attached.
    const turnId = await sendWithText('Nothing attached?');
    await chat.waitForAgentText(turnId, 'You said: Nothing attached?');
    assert.equal(await chat.frame.locator('.composer-chip').count(), 0);
  });

  it('Shift-dragging a file from the Explorer onto the chat attaches it', async () => {
    // The Explorer and the chat side by side: the chat in an editor tab, the Explorer in the sidebar.
    await runCommand(chat.page, 'ACP: Open Chat in Editor');
    const editor = await editorChatFrame(chat.page);
    await chat.page.locator('.activitybar a.action-label[aria-label^="Explorer"]').click();
    const row = chat.page
      .locator('.explorer-folders-view .monaco-list-row', { hasText: 'README.md' })
      .first();
    await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    const from = await row.boundingBox();
    const onto = await (await editor.frameElement()).boundingBox();
    assert.ok(from && onto);
    // As a person does it: press on the row, start moving, hold Shift (VS Code hands a drop to a webview only
    // with Shift held; without it the editor area takes the file), move over the chat and let go.
    await chat.page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await chat.page.mouse.down();
    await chat.page.mouse.move(from.x + from.width / 2 + 30, from.y + from.height / 2 + 5, { steps: 5 });
    await chat.page.keyboard.down('Shift');
    await chat.page.mouse.move(onto.x + onto.width / 2, onto.y + onto.height - 60, { steps: 20 });
    await chat.page.mouse.move(onto.x + onto.width / 2 + 5, onto.y + onto.height - 55, { steps: 5 });
    await chat.page.mouse.up();
    await chat.page.keyboard.up('Shift');

    await editor
      .locator('.composer-chip .chip-label')
      .filter({ hasText: /^README\.md$/ })
      .waitFor({ timeout: UI_TIMEOUT });
    const readme = join(sampleWorkspace, 'README.md');
    const turnId = await sendWithText('Read this.', editor);
    const chars = readFileSync(readme, 'utf8').length;
    await waitForAgentText(
      editor,
      turnId,
      `You said: Read this. resource ${pathToFileURL(readme).href} (${chars} chars)`,
    );
    await runCommand(chat.page, 'View: Close All Editors');
    // The sidebar back on the chat, as the other tests expect it.
    chat.frame = await openChat(chat.page);
  });
});
