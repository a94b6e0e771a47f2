import type { ChatPage } from './chatPage';

/**
 * Opens the chat list as the view's title action does (the host posts `show_chat_list`), and waits until
 * it shows. The same message closes it again.
 */
export async function openChatList(page: ChatPage): Promise<void> {
  await page.host({ type: 'show_chat_list' });
  await page.page.locator('#chat-list').waitFor({ state: 'visible' });
}
