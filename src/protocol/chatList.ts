import type { ChatSummary } from './messages';

/**
 * `chats` with `chat` put at `index`, taken from where it was (if it was there): what a `chat_changed` message
 * does to the list a view holds. The host sends one only when the result is its own list.
 */
export function withChatAt(chats: readonly ChatSummary[], chat: ChatSummary, index: number): ChatSummary[] {
  const rest = chats.filter((listed) => listed.chatId !== chat.chatId);
  rest.splice(Math.min(index, rest.length), 0, chat);
  return rest;
}
