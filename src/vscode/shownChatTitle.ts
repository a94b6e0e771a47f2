import type { HostMessage } from '../protocol';

/**
 * The title of the chat a view shows, read from a message posted to that view: a snapshot, or the chat
 * list with the view's active chat. '' for a chat with no title yet; undefined when the message does not say.
 * The sidebar's view title and a chat tab's title follow it.
 */
export function shownChatTitle(message: HostMessage): string | undefined {
  const shown =
    message.type === 'snapshot'
      ? message.view.chats?.find((chat) => chat.chatId === message.view.chat?.chatId)
      : message.type === 'chats'
        ? message.chats.find((chat) => chat.chatId === message.activeChatId)
        : undefined;
  return shown?.title.trim();
}
