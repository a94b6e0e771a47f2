import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { ChatController } from '../chat/chatController';
import { ChatTab } from './chatTab';

/**
 * What VS Code keeps of a chat tab over a reload: the webview's own state (its draft, its queue)
 * with the chat it shows. It comes from the webview, so it is parsed like any other input.
 */
const TabStateSchema = z.object({ chatId: z.optional(z.catch(z.string(), '')) });

/**
 * The chats in editor tabs ("ACP: Open Chat in Editor"): each tab runs the same webview bundle as
 * the sidebar with a chat of its own, so different chats sit side by side; a chat shown in two
 * places is kept in sync in both. Each tab comes back after a reload with its own chat
 * (`WebviewPanelSerializer`, activation event `onWebviewPanel`), a new chat when that one was deleted.
 */
export class ChatPanels implements vscode.WebviewPanelSerializer, vscode.Disposable {
  static readonly viewType = 'acpAgents.chatPanel';
  private readonly openTabs = new Set<ChatTab>();
  private readonly readyEmitter = new vscode.EventEmitter<void>();
  /** Fires when a tab's webview has loaded and said it is ready (it then gets its chat). */
  readonly onDidBecomeReady = this.readyEmitter.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: ChatController,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** The open tabs, oldest first. */
  get tabs(): readonly ChatTab[] {
    return [...this.openTabs];
  }

  /** Whether a tab is on screen (permission prompts for its chat are asked in the chat then). */
  get isVisible(): boolean {
    return this.tabs.some((tab) => tab.panel.visible);
  }

  /** Whether a tab is open. */
  get isOpen(): boolean {
    return this.openTabs.size > 0;
  }

  /** Whether every open tab runs the chat (said `ready`); false without tabs. */
  get isReady(): boolean {
    return this.isOpen && this.tabs.every((tab) => tab.isReady);
  }

  /** The chats shown in tabs that are on screen. */
  visibleChatIds(): Set<string> {
    return new Set(this.tabs.filter((tab) => tab.panel.visible).map((tab) => tab.chatId));
  }

  /** The tab that is the active editor, if a chat tab is. */
  get activeTab(): ChatTab | undefined {
    return this.tabs.find((tab) => tab.panel.active);
  }

  /** The chat of the tab that is the active editor, if a chat tab is. */
  get activeChatId(): string | undefined {
    return this.activeTab?.chatId;
  }

  /**
   * Opens chat `chatId` in a new tab beside the active editor — or reveals the tab that shows it
   * already. Without `chatId` the tab starts a new chat.
   */
  open(chatId?: string): ChatTab {
    const showing = chatId === undefined ? undefined : this.tabs.find((tab) => tab.chatId === chatId);
    if (showing) {
      showing.panel.reveal();
      return showing;
    }
    const panel = vscode.window.createWebviewPanel(
      ChatPanels.viewType,
      'ACP Chat',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      { retainContextWhenHidden: false },
    );
    return this.adopt(panel, chatId);
  }

  /** A tab that was open before the reload, with the state its webview kept. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const parsed = TabStateSchema.safeParse(state ?? {});
    const chatId = parsed.success && parsed.data.chatId ? parsed.data.chatId : undefined;
    if (!chatId) {
      this.log.info('A chat tab came back without its chat: it starts a new one.');
    }
    this.adopt(panel, chatId);
  }

  private adopt(panel: vscode.WebviewPanel, chatId: string | undefined): ChatTab {
    const tab = new ChatTab(panel, this.extensionUri, this.controller, this.log, chatId, () =>
      this.readyEmitter.fire(),
    );
    this.openTabs.add(tab);
    panel.onDidDispose(() => {
      tab.dispose();
      this.openTabs.delete(tab);
    });
    return tab;
  }

  /** Closes every chat tab. */
  close(): void {
    for (const tab of this.tabs) {
      tab.panel.dispose();
    }
  }

  dispose(): void {
    for (const tab of this.tabs) {
      tab.dispose();
    }
    this.openTabs.clear();
    this.readyEmitter.dispose();
  }
}
