import type { ChatContributionFactory } from '../../../chat/chatContribution';
import { chatOf } from '../../../chat/chatCommands';
import { sendComposed } from '../../../chat/chatTurns';
import type { Thread } from '../../../core/thread/thread';
import { ChatForks } from './chatForks';

/**
 * Puts the workspace back to before the user message `entryId` of `thread`, once the user confirmed what
 * changes; resolves false when the user declined. (The composition root gives the checkpoints' restore.)
 */
export type RestoreBeforeMessage = (thread: Thread, entryId: string) => Promise<boolean>;

/**
 * Edit and resend: the edited message forks the chat before it (a new chat given the transcript up to
 * there) and is sent there; with "restore the files first" the workspace goes back first — and when the
 * user declines that, nothing is forked nor sent.
 */
export function forksContribution(restoreFiles?: RestoreBeforeMessage): ChatContributionFactory {
  return ({ chats, sessions, turns, switchChat }) => {
    const forks = new ChatForks({ chats, sessions, switchChat });
    return {
      id: 'forks',
      viewMessages: {
        edit_resend: async (message, view) => {
          if (message.restoreCheckpoint) {
            if (!restoreFiles) {
              throw new Error('Restoring the files needs a workspace folder.');
            }
            if (!(await restoreFiles(chatOf(chats, view).thread, message.entryId))) {
              // Cancel in the restore's confirmation: no fork, nothing sent, the edit stays in the composer.
              return turns.keepUnsent(view);
            }
          }
          await forks.fork(view, message.entryId);
          await sendComposed(turns, message, view);
        },
      },
    };
  };
}
