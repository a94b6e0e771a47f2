import type { ChatSummary } from '../protocol';

/** A chat list as a view holds it: the active chat, and each chat's id with its summary as posted (JSON). */
export interface HeldChatList {
  readonly activeChatId: string;
  readonly ids: readonly string[];
  readonly texts: readonly string[];
}

/** `chats` (with `activeChatId`) as a view would hold it once posted. */
export function heldChatList(chats: readonly ChatSummary[], activeChatId: string): HeldChatList {
  return {
    activeChatId,
    ids: chats.map((chat) => chat.chatId),
    texts: chats.map((chat) => JSON.stringify(chat)),
  };
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
  if (held === undefined || held.activeChatId !== next.activeChatId || held.ids.length !== next.ids.length) {
    return 'whole';
  }
  const first = next.texts.findIndex((text, index) => text !== held.texts[index]);
  if (first === -1) {
    return 'same';
  }
  // The one chat is the first that differs: in `next` (it moved up, or changed in place) or in `held` (it moved down).
  for (const chatId of new Set([next.ids[first]!, held.ids[first]!])) {
    if (sameWithout(held, next, chatId)) {
      return { index: next.ids.indexOf(chatId) };
    }
  }
  return 'whole';
}

/** Whether both lists hold `chatId` and, without it, the same chats in the same order, each as posted. */
function sameWithout(held: HeldChatList, next: HeldChatList, chatId: string): boolean {
  let at = 0;
  let seen = 0;
  for (let index = 0; index < next.ids.length; index++) {
    if (next.ids[index] === chatId) {
      seen++;
      continue;
    }
    if (held.ids[at] === chatId) {
      at++;
      seen++;
    }
    if (held.ids[at] !== next.ids[index] || held.texts[at] !== next.texts[index]) {
      return false;
    }
    at++;
  }
  // The chat was last in `held` (moved up from the end): not yet passed over.
  if (at < held.ids.length && held.ids[at] === chatId) {
    seen++;
  }
  return seen === 2;
}
