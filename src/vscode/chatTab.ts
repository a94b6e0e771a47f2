import * as vscode from 'vscode';
import type { ChatController } from '../chat/chatController';
import type { HostMessage } from '../protocol';
import { connectChatWebview, type ChatWebviewConnection } from './chatWebview';
import { ShownChatTitle } from './shownChatTitle';

/** The title of a tab whose chat has none yet. */
const UNTITLED = 'ACP Chat';

/**
 * One chat in an editor tab: a WebviewPanel running the chat bundle, with a chat of its own (named
 * when the tab opens or comes back after a reload, else a new one). The tab's title follows its
 * chat's title, also after a switch or a rename inside the tab.
 */
export class ChatTab implements vscode.Disposable {
  private readonly connection: ChatWebviewConnection;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readyNow = false;
  private readonly titles = new ShownChatTitle(UNTITLED);

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly controller: ChatController,
    log: vscode.LogOutputChannel,
    chatId: string | undefined,
    onReady: () => void,
  ) {
    panel.title = UNTITLED;
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'acp.svg');
    this.connection = connectChatWebview(panel.webview, extensionUri, controller, log, {
      own: chatId === undefined ? {} : { chatId },
      onPost: (message) => this.retitle(message),
    });
    this.subscriptions.push(
      this.connection,
      panel.webview.onDidReceiveMessage((message: unknown) => {
        if (
          typeof message === 'object' &&
          message !== null &&
          (message as { type?: unknown }).type === 'ready'
        ) {
          this.readyNow = true;
          onReady();
        }
      }),
    );
  }

  /** The chat the tab shows ('' until the journal is read). */
  get chatId(): string {
    return this.controller.chatShownBy(this.connection.sink) ?? '';
  }

  /** Whether the tab's webview runs the chat (said `ready`). */
  get isReady(): boolean {
    return this.readyNow;
  }

  /** Handles a message as if the tab's webview sent it (the integration tests drive a tab this way). */
  handle(message: unknown): Promise<void> {
    return this.controller.handleMessage(message, this.connection.sink);
  }

  /** The tab title's New Chat: a new chat in this tab. */
  newChat(): Promise<void> {
    return this.handle({ type: 'new_chat' });
  }

  /** The tab title's Show Chats: the tab comes forward and its chat list opens (or closes). */
  async showChatList(): Promise<void> {
    this.panel.reveal(undefined, false);
    const message: HostMessage = { type: 'show_chat_list' };
    await this.panel.webview.postMessage(message);
  }

  /** The tab's title follows the title of the chat it shows. */
  private retitle(message: HostMessage): void {
    const title = this.titles.of(message);
    if (title !== undefined) {
      this.panel.title = title;
    }
  }

  dispose(): void {
    for (const subscription of this.subscriptions.splice(0)) {
      subscription.dispose();
    }
  }
}
