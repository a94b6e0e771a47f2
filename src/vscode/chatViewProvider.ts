import * as vscode from 'vscode';
import type { ChatController } from '../chat/chatController';
import { connectChatWebview } from './chatWebview';

/**
 * The sidebar chat view: the chat webview (see `connectChatWebview`) in the ACP Agents container.
 * The controller re-sends the full state whenever a webview says it is ready.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'acpAgents.chat';
  private view: vscode.WebviewView | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: ChatController,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get isVisible(): boolean {
    return this.view?.visible ?? false;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const connection = connectChatWebview(view.webview, this.extensionUri, this.controller, this.log);
    const disposed = view.onDidDispose(() => {
      connection.dispose();
      disposed.dispose();
      if (this.view === view) {
        this.view = undefined;
      }
    });
    this.subscriptions.push(connection, disposed);
  }

  /** Shows the chat view (and its container). */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
  }

  dispose(): void {
    for (const subscription of this.subscriptions.splice(0)) {
      subscription.dispose();
    }
  }
}
