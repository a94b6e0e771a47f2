import * as vscode from 'vscode';
import type { ChatPanels } from './chatPanels';
import type { ChatViewProvider } from './chatViewProvider';

/**
 * The chat's actions in VS Code's own title bars, as Copilot Chat has them (package.json `view/title` and
 * `editor/title`): Show Chats in the sidebar view's title, New Chat and Show Chats in a chat tab's. The
 * sidebar's New Chat, Open in Editor and Show Agent Log are the palette's commands.
 */
export function registerChatTitleActions(view: ChatViewProvider, panels: ChatPanels): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('acpAgents.view.showChats', () => view.showChatList()),
    vscode.commands.registerCommand('acpAgents.tab.newChat', () => panels.activeTab?.newChat()),
    vscode.commands.registerCommand('acpAgents.tab.showChats', () => panels.activeTab?.showChatList()),
  ];
}
