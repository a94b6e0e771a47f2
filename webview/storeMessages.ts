import { withChatAt, type HostMessage } from '../src/protocol';
import type { ChatStore } from './store';

/** The host messages that only change the chat's store: the next render shows what they say. */
type StoreMessage = Extract<
  HostMessage,
  {
    type:
      | 'terminal_output'
      | 'add_attachment'
      | 'chats'
      | 'chat_changed'
      | 'save_problem'
      | 'edit_reviews'
      | 'problems_offer'
      | 'elicitation_added'
      | 'elicitation_settled'
      | 'current_file'
      | 'worktree';
  }
>;

/** Applies `message` to `store` when it is one that only changes the store (see `StoreMessage`). */
export function appliedToStore(store: ChatStore, message: HostMessage): message is StoreMessage {
  switch (message.type) {
    case 'terminal_output':
      store.setTerminal(message.terminal);
      return true;
    case 'add_attachment':
      store.addAttachment(message.attachment);
      return true;
    case 'chats':
      store.setChats(message.chats);
      return true;
    case 'chat_changed':
      store.setChats(withChatAt(store.chats, message.chat, message.index));
      return true;
    case 'save_problem':
      store.setSaveProblem(message.chatId, message.message, message.readOnly === true);
      return true;
    case 'edit_reviews':
      store.setEditReviews(message.reviews);
      return true;
    case 'problems_offer':
      store.setProblemsOffer(message.chatId, message.offer);
      return true;
    case 'elicitation_added':
      store.addElicitation(message.chatId, message.item);
      return true;
    case 'elicitation_settled':
      store.settleElicitation(message.chatId, message.key);
      return true;
    case 'current_file':
      store.setCurrentFile(message.file);
      return true;
    case 'worktree':
      store.setWorktree(message.chatId, message.worktree, message.offer);
      return true;
    default:
      return false;
  }
}
