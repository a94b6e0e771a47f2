import type { ChatContributionFactory } from '../../../chat/chatContribution';
import { chatOf } from '../../../chat/chatCommands';
import type { Disposable } from '../../../core/util/disposable';
import type { Thread } from '../../../core/thread/thread';
import type { ChangeReview } from './changeReview';

/**
 * Checkpoints in the chat: one before every prompt (on the turn, or why there is none), the running turn's
 * changes followed live, a turn cut off by a crash finished from the disk when its chat is read back, our
 * own writes noted for a store without git, and the change card's and "Restore checkpoint"'s actions.
 */
export function checkpointsContribution(changes: ChangeReview): ChatContributionFactory {
  return ({ chats }) => {
    /** Per chat, the turn whose changes are followed (one at a time: the next turn replaces it). */
    const following = new Map<string, Disposable>();
    const stopFollowing = (chatId: string): void => {
      following.get(chatId)?.dispose();
      following.delete(chatId);
      late.delete(chatId);
    };
    /** Per chat, the checkpoint before its next turn, still being taken when the prompt went out. */
    const late = new Map<string, Promise<string>>();
    return {
      id: 'checkpoints',
      beforePrompt: async (chat, signal) => {
        const checkpoint = await changes.checkpoint(signal);
        // One still being taken (a large workspace) is followed once it is done — unless Stop was pressed.
        if ('late' in checkpoint && checkpoint.late !== undefined && !signal.aborted) {
          late.set(chat.id, checkpoint.late);
        } else {
          late.delete(chat.id);
        }
        // A failed checkpoint shows on the turn itself: its changes cannot be listed or undone.
        return 'id' in checkpoint
          ? { checkpointId: checkpoint.id }
          : { checkpointProblem: checkpoint.problem };
      },
      threadEvent: (chat, event) => {
        const taking = late.get(chat.id);
        if (event.type === 'turn_started' && (event.turn.checkpointId ?? taking) !== undefined) {
          stopFollowing(chat.id);
          following.set(
            chat.id,
            changes.follow(chat.thread, event.turn.id, () => chat.title, taking),
          );
        }
      },
      chatRestored: (chat) => void changes.recover(chat.thread),
      chatsDeleted: (chatIds) => chatIds.forEach(stopFollowing),
      // The view came up: the first checkpoint of a large workspace is taken before the first prompt needs it.
      viewReady: () => changes.warmUp(),
      beforeWrite: (path) => changes.note(path),
      viewMessages: {
        turn_changes: ({ turnId, action, path }, view) =>
          changes.act(chatOf(chats, view).thread, turnId, action, path),
        restore_checkpoint: ({ turnId }, view) => changes.restore(chatOf(chats, view).thread, turnId),
      },
      dispose: () => [...following.keys()].forEach(stopFollowing),
    };
  };
}

/**
 * Edit and resend's "restore the files first": the workspace back to before the turn the user message
 * `entryId` started (confirmed by the user). Resolves false when the user declined.
 */
export function restoreBeforeMessage(
  changes: ChangeReview,
  thread: Thread,
  entryId: string,
): Promise<boolean> {
  const turnId = thread.entry(entryId)?.turnId;
  return turnId === undefined ? Promise.resolve(true) : changes.restore(thread, turnId);
}
