import type { ChatContribution, ChatContributionFactory } from '../../../chat/chatContribution';
import type { CollectedNotes } from './collectedNotes';
import { noteBlock, noteOf } from './feedbackNotes';
import type { HunkReview } from './hunkReview';
import type { CurrentContent } from './hunkReviewPorts';

/**
 * Hunks in the editor: the latest finished turn's changes become the reviewed ones (`HunkReview`), and the
 * "Ask for a change…" notes collected in the composer go to the agent with the next message (`notes` follows
 * every composer's chips for the editor's comment threads).
 */
export function hunkReviewContribution(
  review: HunkReview,
  current: CurrentContent,
  notes: CollectedNotes,
): ChatContributionFactory {
  return ({ presenter }) => {
    notes.connect(presenter);
    return contribution(review, current, notes);
  };
}

function contribution(review: HunkReview, current: CurrentContent, notes: CollectedNotes): ChatContribution {
  return {
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
    viewReady: (view) => notes.watch(view),
    attachmentBlock: (attachment) => {
      const note = noteOf(attachment);
      return note === undefined ? undefined : noteBlock(note, current);
    },
  };
}
