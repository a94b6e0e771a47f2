import type { ChatActivityState, ChatSummary, HostMessage } from '../protocol';

/** What a chat's status adds before its title in a tab or view title: plain text (titles take no icons). */
const ACTIVITY_MARKS: Record<ChatActivityState, string> = {
  running: '◌',
  waiting: '●',
  unread: '✓',
  failed: '✕',
};

/**
 * The title of the chat a view shows, read from the messages posted to that view, after its status mark (running
 * ◌, waiting for you ●, finished unread ✓, failed ✕): a snapshot, the chat list with the view's active chat, or
 * one chat's change when it is the chat shown (the shown chat is the one the last snapshot or list named).
 * `untitled` for a chat with no title yet. The sidebar's view title and a chat tab's title follow it.
 */
export class ShownChatTitle {
  private shownChatId: string | undefined;

  constructor(private readonly untitled: string) {}

  /** The title `message` gives the view; undefined when it does not say. */
  of(message: HostMessage): string | undefined {
    const shown = this.shownSummary(message);
    if (!shown) {
      return undefined;
    }
    const title = shown.title.trim() || this.untitled;
    return shown.activity ? `${ACTIVITY_MARKS[shown.activity]} ${title}` : title;
  }

  private shownSummary(message: HostMessage): ChatSummary | undefined {
    switch (message.type) {
      case 'snapshot':
        this.shownChatId = message.view.chat?.chatId;
        return message.view.chats?.find((chat) => chat.chatId === this.shownChatId);
      case 'chats':
        this.shownChatId = message.activeChatId;
        return message.chats.find((chat) => chat.chatId === this.shownChatId);
      case 'chat_changed':
        return message.chat.chatId === this.shownChatId ? message.chat : undefined;
      default:
        return undefined;
    }
  }
}
