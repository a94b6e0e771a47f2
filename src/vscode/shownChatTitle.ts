import type { ChatActivityState, HostMessage } from '../protocol';

/** What a chat's status adds before its title in a tab or view title: plain text (titles take no icons). */
const ACTIVITY_MARKS: Record<ChatActivityState, string> = {
  running: '◌',
  waiting: '●',
  unread: '✓',
  failed: '✕',
};

/**
 * The title of the chat a view shows, read from a message posted to that view: a snapshot, or the chat
 * list with the view's active chat, after its status mark (running ◌, waiting for you ●, finished unread ✓,
 * failed ✕). `untitled` for a chat with no title yet; undefined when the message does not say.
 * The sidebar's view title and a chat tab's title follow it.
 */
export function shownChatTitle(message: HostMessage, untitled: string): string | undefined {
  const shown =
    message.type === 'snapshot'
      ? message.view.chats?.find((chat) => chat.chatId === message.view.chat?.chatId)
      : message.type === 'chats'
        ? message.chats.find((chat) => chat.chatId === message.activeChatId)
        : undefined;
  if (!shown) {
    return undefined;
  }
  const title = shown.title.trim() || untitled;
  return shown.activity ? `${ACTIVITY_MARKS[shown.activity]} ${title}` : title;
}
