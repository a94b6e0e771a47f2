import type { ChatSummary } from '../protocol';

/** A chat list as a view holds it: the active chat, and each chat's summary as posted. */
export interface HeldChatList {
  readonly activeChatId: string;
  readonly chats: readonly ChatSummary[];
}

/**
 * What a view holding `held` needs to hold `next`: nothing (`same`); one chat's summary at its new place
 * (`{ index }` in `next`), when the lists are the same but for that chat — changed, moved, or both, as a
 * turn's start and end do to the chat they touch; else the whole list. Linear in the list's length.
 */
export function chatListChange(
  held: HeldChatList | undefined,
  next: HeldChatList,
): 'same' | 'whole' | { readonly index: number } {
  if (
    held === undefined ||
    held.activeChatId !== next.activeChatId ||
    held.chats.length !== next.chats.length
  ) {
    return 'whole';
  }
  const first = next.chats.findIndex((chat, index) => !sameSummary(chat, held.chats[index]!));
  if (first === -1) {
    return 'same';
  }
  // The one chat is the first that differs: in `next` (it moved up, or changed in place) or in `held` (it moved down).
  for (const chatId of new Set([next.chats[first]!.chatId, held.chats[first]!.chatId])) {
    if (sameWithout(held.chats, next.chats, chatId)) {
      return { index: next.chats.findIndex((chat) => chat.chatId === chatId) };
    }
  }
  return 'whole';
}

/** Whether both lists hold `chatId` and, without it, the same chats in the same order, each as posted. */
function sameWithout(held: readonly ChatSummary[], next: readonly ChatSummary[], chatId: string): boolean {
  let at = 0;
  let seen = 0;
  for (const chat of next) {
    if (chat.chatId === chatId) {
      seen++;
      continue;
    }
    if (held[at]?.chatId === chatId) {
      at++;
      seen++;
    }
    const before = held[at];
    if (before === undefined || !sameSummary(before, chat)) {
      return false;
    }
    at++;
  }
  // The chat was last in `held` (moved up from the end): not yet passed over.
  if (held[at]?.chatId === chatId) {
    seen++;
  }
  return seen === 2;
}

/**
 * Whether two summaries say the same: the same fields, each the same value. A summary's fields are strings,
 * numbers and booleans, so this is what their JSON would say — without writing a hundred of them a turn.
 */
function sameSummary(a: ChatSummary, b: ChatSummary): boolean {
  const keys = Object.keys(a) as (keyof ChatSummary)[];
  return (
    keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key])
  );
}
