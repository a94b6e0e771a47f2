/** The chat view in the sidebar: shown (permissions answered inline) or hidden (permissions as modal dialogs). */
import * as vscode from 'vscode';
import { getApi } from './extensionApi';
import { eventually } from './waits';

/** Opens the ACP Agents sidebar with the chat view, so permission requests are answered inline. */
export async function showChatView(): Promise<void> {
  await vscode.commands.executeCommand('acpAgents.chat.focus');
  // The view's webview is live, said `ready`, and VS Code told the extension it is visible (the
  // permission port reads the same flag).
  await eventually('the chat webview to say ready and be visible', () =>
    getApi().then((api) => api.chat.readyViewCount > 0 && api.sidebar.isVisible),
  );
}

/** Hides the sidebar (and with it the chat view), so permission requests become modal dialogs. */
export async function hideChatView(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  await eventually('the chat view to be hidden', () => getApi().then((api) => !api.sidebar.isVisible));
}
