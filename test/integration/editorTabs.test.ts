/**
 * Issue 11 item 6, in the real VS Code: chats in editor tabs, each with a chat of its own, so two different
 * chats sit side by side; each tab comes back with its own chat through the panel serializer.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { AcpAgentsApi } from '../../src/extension';
import { ChatPanels } from '../../src/vscode/chatPanels';
import {
  activeChatId,
  activeThread,
  allTabs,
  ask,
  closeAllEditors,
  eventually,
  freshChat,
  getApi,
  showChatView,
} from './support/harness';
import { requestScreenshot } from './support/screenshot';

/** The chat tabs VS Code shows. */
function chatTabs(): vscode.Tab[] {
  return allTabs().filter(
    (tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(ChatPanels.viewType),
  );
}

/** The title of a listed chat. */
function titleOf(api: AcpAgentsApi, chatId: string): string {
  const chat = api.chat.chatList().find((listed) => listed.chatId === chatId);
  assert.ok(chat, `chat ${chatId} is listed`);
  return chat.title;
}

describe('chats in editor tabs, side by side (issue 11 item 6)', () => {
  let api: AcpAgentsApi;

  before(async () => {
    api = await getApi();
    await closeAllEditors();
    await showChatView();
  });

  after(async () => {
    api.panels.close();
    await closeAllEditors();
  });

  it('opens the sidebar’s chat and a new chat in two tabs; each answers in its own, titled by its chat', async () => {
    const sidebarChat = await freshChat(api);
    await ask(api, 'asked in the sidebar');
    await vscode.commands.executeCommand('acpAgents.view.openChatInEditor');
    await vscode.commands.executeCommand('acpAgents.newChatInEditor');
    const [first, second] = await eventually(
      'two chat tabs running the chat webview',
      () => api.panels.tabs.length === 2 && api.panels.isReady && api.panels.tabs,
      30_000,
    );
    assert.ok(first && second);
    assert.equal(first.chatId, sidebarChat, 'the sidebar’s button opens the sidebar’s chat');
    assert.ok(second.chatId && second.chatId !== sidebarChat, 'New Chat in Editor starts a new chat');
    assert.equal(chatTabs().length, 2);

    await second.handle({ type: 'send', text: 'asked in the second tab' });
    await eventually('the second tab’s turn to end', () =>
      api.chat
        .chatList()
        .some(
          (chat) =>
            chat.chatId === second.chatId && !chat.running && chat.title === 'asked in the second tab',
        ),
    );
    assert.equal(titleOf(api, second.chatId), 'asked in the second tab');
    // The sidebar kept its chat, and that chat got nothing of the tab's.
    assert.equal(activeChatId(api), sidebarChat);
    assert.deepEqual(
      activeThread(api)
        .entries.filter((entry) => entry.kind === 'user')
        .map((entry) => entry.text),
      ['asked in the sidebar'],
    );
    // Each tab is titled by its chat.
    await eventually('the tab titles', () => {
      const labels = chatTabs()
        .map((tab) => tab.label)
        .sort();
      return labels.join('|') === ['asked in the second tab', 'asked in the sidebar'].sort().join('|');
    });

    // Run again from the chat tab that is active: it reveals that tab rather than opening a copy.
    second.panel.reveal();
    await eventually('the second tab active', () => second.panel.active);
    await vscode.commands.executeCommand('acpAgents.openChatInEditor');
    assert.equal(api.panels.tabs.length, 2);

    const shot = await requestScreenshot('vscode-chat-two-editor-tabs', { waitForChatView: true });
    assert.notEqual(shot?.chatViewRendered, false, 'the chat webviews rendered');
  });

  it('brings each tab back with its own chat after a reload, and a tab whose chat was deleted with a new one', async () => {
    const before = api.panels.tabs.map((tab) => tab.chatId);
    assert.equal(before.length, 2, 'the tabs of the previous test');
    api.panels.close();
    await eventually('the tabs closed', () => chatTabs().length === 0 && !api.panels.isOpen);

    // What VS Code does after a reload: a panel of the chat's type, handed to the serializer with the
    // state its webview kept (its draft and the chat it showed).
    const states = [
      ...before.map((chatId) => ({ draft: '', chatId })),
      { draft: '', chatId: 'a-deleted-chat' },
    ];
    // Each in its own editor column, so every tab is on screen and its webview loads.
    for (const [column, state] of states.entries()) {
      const panel = vscode.window.createWebviewPanel(ChatPanels.viewType, 'restoring', column + 1);
      await api.panels.deserializeWebviewPanel(panel, state);
    }
    const restored = await eventually(
      'three restored tabs running the chat webview',
      () => api.panels.tabs.length === 3 && api.panels.isReady && api.panels.tabs,
      30_000,
    );
    assert.deepEqual(
      restored.slice(0, 2).map((tab) => tab.chatId),
      before,
      'each tab shows the chat it showed before',
    );
    const fresh = restored[2]?.chatId;
    assert.ok(fresh && !before.includes(fresh), 'the tab whose chat is gone got a new chat');
    assert.equal(titleOf(api, fresh), 'New chat');
    await eventually('the restored tabs titled by their chats', () =>
      chatTabs().some((tab) => tab.label === 'asked in the second tab'),
    );
  });
});
