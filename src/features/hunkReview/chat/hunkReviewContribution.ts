import type { ChatContributionFactory } from '../../../chat/chatContribution';
import { noteBlock, noteOf } from './feedbackNotes';
import type { HunkReview } from './hunkReview';
import type { CurrentContent } from './hunkReviewPorts';

/**
 * Hunks in the editor: the latest finished turn's changes become the reviewed ones (`HunkReview`), and the
 * "Ask for a change…" notes collected in the composer go to the agent with the next message.
 */
export function hunkReviewContribution(review: HunkReview, current: CurrentContent): ChatContributionFactory {
  return () => ({
    id: 'hunkReview',
    threadEvent: (chat, event) => {
      if (event.type === 'turn_updated' || event.type === 'turn_ended' || event.type === 'turn_started') {
        review.turnChanged(chat.id, chat.thread, event.turn);
      }
    },
    // After a reload: the last turn's changes still to decide show in the editor again.
    chatRestored: (chat) => {
      const last = chat.thread.snapshot().turns.at(-1);
      if (last) {
        review.turnChanged(chat.id, chat.thread, last);
      }
    },
    chatsDeleted: (chatIds) => chatIds.forEach((chatId) => review.chatGone(chatId)),
    attachmentBlock: (attachment) => {
      const note = noteOf(attachment);
      return note === undefined ? undefined : noteBlock(note, current);
    },
  });
}
