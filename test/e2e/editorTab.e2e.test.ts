/**
 * Issue 11 item 6: chats in editor tabs. The tab runs the same webview as the sidebar with a chat of its own,
 * so two different chats sit side by side, and the tab comes back with its chat after the window reloads.
 */
import { strict as assert } from 'node:assert';
import type { Frame } from 'playwright-core';
import {
  editorChatFrame,
  openChat,
  runCommand,
  sendPrompt,
  turn,
  UI_TIMEOUT,
  waitForTurnStatus,
} from './support/chat';
import { screenshot } from './support/workbench';
import { useWorkbench } from './support/lifecycle';

/** How many of the view's user messages contain `text` (turn ids repeat across chats, texts here do not). */
function userMessages(frame: Frame, text: string): Promise<number> {
  return frame.locator('article.entry-user', { hasText: text }).count();
}

describe('the chat in an editor tab (real VS Code)', () => {
  // The test opens the sidebar chat itself.
  const chat = useWorkbench({ openChat: false });

  it('shows chat A in the sidebar and chat B in a tab side by side, each answering in its own, both restored after a reload', async () => {
    const sidebar = await openChat(chat.page);
    const inSidebar = await sendPrompt(sidebar, 'chat A in the sidebar');
    await waitForTurnStatus(sidebar, inSidebar, 'completed');

    await runCommand(chat.page, 'ACP: New Chat in Editor');
    await chat.page
      .locator('.tabs-container .tab', { hasText: 'New chat' })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    let editor = await editorChatFrame(chat.page);
    const inTab = await sendPrompt(editor, 'chat B in the tab');
    await waitForTurnStatus(editor, inTab, 'completed');
    await chat.page
      .locator('.tabs-container .tab', { hasText: 'chat B in the tab' })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });

    // Each view answers in its own chat: neither shows the other's turn.
    assert.equal(await userMessages(editor, 'chat A'), 0, 'the tab does not show chat A');
    assert.equal(await userMessages(sidebar, 'chat B'), 0, 'the sidebar does not show chat B');
    const again = await sendPrompt(sidebar, 'chat A again');
    await waitForTurnStatus(sidebar, again, 'completed');
    assert.equal(
      await userMessages(editor, 'chat A again'),
      0,
      'typing in the sidebar leaves the tab as it is',
    );
    await screenshot(chat.page, 'e2e-chat-editor-tab');

    // The window's own reload: the workbench saves its editors (and so the tab, with its chat) on the way out.
    const reloaded = chat.page.waitForEvent('load', { timeout: 60_000 });
    await runCommand(chat.page, 'Developer: Reload Window');
    await reloaded;
    await chat.page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
    await chat.page
      .locator('.tabs-container .tab', { hasText: 'chat B in the tab' })
      .waitFor({ state: 'visible', timeout: 60_000 });
    editor = await editorChatFrame(chat.page);
    await turn(editor, inTab).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(
      (await turn(editor, inTab).locator('article.entry-user').innerText()).trim(),
      'chat B in the tab',
    );
    assert.equal(await userMessages(editor, 'chat A'), 0, 'the restored tab shows its own chat');
    await screenshot(chat.page, 'e2e-chat-editor-tab-reloaded');
  });
});
