import type { ChatPage } from './chatPage';

/** Opens the chat list as the user does (the history action), and waits until it shows. */
export async function openChatList(page: ChatPage): Promise<void> {
  await page.page.getByRole('button', { name: 'Show chats' }).click();
  await page.page.locator('#chat-list').waitFor({ state: 'visible' });
}
