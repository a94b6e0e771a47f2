import * as vscode from 'vscode';
import type { ChatController } from '../chat/chatController';
import type { ChatPanels } from './chatPanels';
import type { ChatViewProvider } from './chatViewProvider';

/**
 * The chat-in-editor commands. "Open Chat in Editor" opens the chat shown where it was run — the
 * active chat tab, else the sidebar when it is on screen — in a tab, and starts a new chat in a tab
 * from anywhere else; the sidebar's title button always opens the sidebar's chat. "New Chat in
 * Editor" always starts a new one. Several tabs can be open, each with its own chat.
 */
export function registerEditorTabCommands(
  chat: ChatController,
  view: ChatViewProvider,
  panels: ChatPanels,
): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('acpAgents.openChatInEditor', async (fresh?: unknown) => {
      await chat.restored;
      const current = panels.activeChatId ?? (view.isVisible ? chat.windowChatId : undefined);
      panels.open(fresh === true || fresh === 'new' ? undefined : current);
    }),
    vscode.commands.registerCommand('acpAgents.view.openChatInEditor', async () => {
      await chat.restored;
      panels.open(chat.windowChatId);
    }),
    vscode.commands.registerCommand('acpAgents.newChatInEditor', () => void panels.open()),
  ];
}
