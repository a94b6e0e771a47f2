import type { ChatController } from '../chat/chatController';
import type { ChatPanels } from './chatPanels';
import type { ChatViewProvider } from './chatViewProvider';

/** The chat views, filled in as they are built (the permission port is built before them). */
export interface ChatViewRefs {
  current?: ChatViewProvider;
  panels?: ChatPanels;
  chat?: ChatController;
}

/**
 * Whether the chat of agent session `sessionId` is on screen — the sidebar showing it, or a visible
 * tab showing it — so its permission request is answered inline there rather than in a dialog. A
 * session no chat knows (yet) counts as shown when any chat view is visible.
 */
export function chatOnScreen(views: ChatViewRefs, sessionId: string): boolean {
  const chatId = views.chat?.chatOfSession(sessionId);
  const sidebar = views.current?.isVisible === true && (!chatId || chatId === views.chat?.windowChatId);
  const tab = views.panels?.isVisible === true && (!chatId || views.panels.visibleChatIds().has(chatId));
  return sidebar || tab;
}

/** Whether chat `chatId` is on screen: the sidebar is visible showing it, or a visible tab shows it. */
export function chatIdOnScreen(views: ChatViewRefs, chatId: string): boolean {
  const sidebar = views.current?.isVisible === true && chatId === views.chat?.windowChatId;
  return sidebar || views.panels?.visibleChatIds().has(chatId) === true;
}

/** Shows the chat of agent session `sessionId`: the sidebar when it shows it, else its tab (opened if need be). */
export function revealChat(views: ChatViewRefs, sessionId: string): void {
  const chatId = views.chat?.chatOfSession(sessionId);
  if (!chatId || chatId === views.chat?.windowChatId) {
    void views.current?.reveal();
    return;
  }
  views.panels?.open(chatId);
}

/** Shows chat `chatId`: its tab when one shows it, else the sidebar switched to it. */
export async function openChat(views: ChatViewRefs, chatId: string): Promise<void> {
  if (views.panels?.tabs.some((tab) => tab.chatId === chatId)) {
    views.panels.open(chatId);
    return;
  }
  if (chatId !== views.chat?.windowChatId) {
    await views.chat?.switchChat(chatId);
  }
  await views.current?.reveal();
}
