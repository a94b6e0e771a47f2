import * as vscode from 'vscode';
import type { ChatController } from '../chat/chatController';
import { connectChatWebview } from './chatWebview';

/**
 * The chat in an editor tab: the same webview bundle as the sidebar, in a WebviewPanel. Every chat
 * webview shows the active chat and they are kept in sync (the controller sends each the same
 * messages), so the tab and the sidebar are two windows on one chat. There is one tab at a time;
 * it comes back after a reload (`WebviewPanelSerializer`, activation event `onWebviewPanel`).
 */
export class ChatPanels implements vscode.WebviewPanelSerializer, vscode.Disposable {
  static readonly viewType = 'acpAgents.chatPanel';
  private panel: vscode.WebviewPanel | undefined;
  private connection: vscode.Disposable | undefined;
  private ready = false;
  private readonly readyEmitter = new vscode.EventEmitter<void>();
  /** Fires when the tab's webview has loaded and said it is ready (it then gets the chat). */
  readonly onDidBecomeReady = this.readyEmitter.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: ChatController,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Whether the tab is open and visible (permission prompts are asked in the chat then). */
  get isVisible(): boolean {
    return this.panel?.visible ?? false;
  }

  /** Whether a tab is open. */
  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /** Whether the open tab's webview runs the chat (said `ready`). */
  get isReady(): boolean {
    return this.ready;
  }

  /** Opens the chat in an editor tab (beside the active editor), or reveals the open one. */
  open(): void {
    if (this.panel) {
      this.panel.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      ChatPanels.viewType,
      'Chat',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      { retainContextWhenHidden: false },
    );
    this.adopt(panel);
  }

  /** A tab that was open before the reload. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel): Promise<void> {
    this.adopt(panel);
  }

  private adopt(panel: vscode.WebviewPanel): void {
    if (this.panel) {
      // One tab at a time: a second restored one is closed, the first keeps the chat.
      panel.dispose();
      return;
    }
    this.panel = panel;
    panel.title = 'ACP Chat';
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'acp.svg');
    this.ready = false;
    const connection = connectChatWebview(panel.webview, this.extensionUri, this.controller, this.log);
    const readiness = panel.webview.onDidReceiveMessage((message: unknown) => {
      if (
        typeof message === 'object' &&
        message !== null &&
        (message as { type?: unknown }).type === 'ready'
      ) {
        this.ready = true;
        this.readyEmitter.fire();
      }
    });
    this.connection = vscode.Disposable.from(connection, readiness);
    panel.onDidDispose(() => {
      this.connection?.dispose();
      this.connection = undefined;
      this.ready = false;
      if (this.panel === panel) {
        this.panel = undefined;
      }
    });
  }

  /** Closes the tab. */
  close(): void {
    this.panel?.dispose();
  }

  dispose(): void {
    this.connection?.dispose();
    this.readyEmitter.dispose();
    this.panel = undefined;
  }
}
