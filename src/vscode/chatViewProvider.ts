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
  /** The current view's connection and dispose listener: one set, replaced on each resolve. */
  private current: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: ChatController,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get isVisible(): boolean {
    return this.view?.visible ?? false;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    // A view resolved again (hidden and shown) replaces the last one's subscriptions, not adds to them.
    this.disposeCurrent();
    this.view = view;
    const connection = connectChatWebview(view.webview, this.extensionUri, this.controller, this.log);
    const disposed = view.onDidDispose(() => {
      connection.dispose();
      disposed.dispose();
      if (this.view === view) {
        this.view = undefined;
        this.current = [];
      }
    });
    this.current = [connection, disposed];
  }

  /** Shows the chat view (and its container). */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
  }

  dispose(): void {
    this.disposeCurrent();
  }

  private disposeCurrent(): void {
    for (const subscription of this.current.splice(0)) {
      subscription.dispose();
    }
  }
}
