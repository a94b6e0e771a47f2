import * as vscode from 'vscode';
import type { ChatController } from '../chat/chatController';
import type { HostMessage } from '../protocol';
import { connectChatWebview } from './chatWebview';
import { ShownChatTitle } from './shownChatTitle';

/** The view's title while its chat has none yet. */
const UNTITLED = 'New chat';

/**
 * The sidebar chat view: the chat webview (see `connectChatWebview`) in the ACP Agents container, its
 * title naming the chat it shows ("ACP Agents: Fix the parser"). The controller re-sends the full state
 * whenever a webview says it is ready.
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

  private badge: vscode.ViewBadge | undefined;

  /** The view's badge: how many chats wait for the user (0: none), kept for a view resolved later. */
  setBadge(value: number, tooltip: string): void {
    this.badge = value > 0 ? { value, tooltip } : undefined;
    if (this.view) {
      this.view.badge = this.badge;
    }
  }

  get isVisible(): boolean {
    return this.view?.visible ?? false;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    // A view resolved again (hidden and shown) replaces the last one's subscriptions, not adds to them.
    this.disposeCurrent();
    this.view = view;
    view.badge = this.badge;
    const titles = new ShownChatTitle(UNTITLED);
    const connection = connectChatWebview(view.webview, this.extensionUri, this.controller, this.log, {
      onPost: (message) => {
        const title = titles.of(message);
        if (title !== undefined) {
          view.title = title;
        }
      },
    });
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

  /** The view title's Show Chats: the view comes forward with focus and its chat list opens (or closes). */
  async showChatList(): Promise<void> {
    await this.reveal();
    await this.post({ type: 'show_chat_list' });
  }

  /** Shows the chat view (and its container). */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
  }

  /**
   * Open Chat: the view shown with the cursor in its message box, also when VS Code drops the focus it hands on to
   * the view's page (see `focus_handoff`). Only here, where the focus is what the user asked for.
   */
  async focus(): Promise<void> {
    await this.post({ type: 'focus_handoff', step: 'start' });
    await this.reveal();
    await this.post({ type: 'focus_handoff', step: 'end' });
  }

  private async post(message: HostMessage): Promise<void> {
    await this.view?.webview.postMessage(message);
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
