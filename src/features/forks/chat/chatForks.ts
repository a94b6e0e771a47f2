import { cutText, STATE_BOUNDS } from '../../../core/session/stateBounds';
import { Thread } from '../../../core/thread/thread';
import type { ChatCollection } from '../../../chat/chatCollection';
import type { Conversation } from '../../../chat/conversation';
import type { SessionCoordinator } from '../../../chat/sessionCoordinator';
import type { ViewSlot } from '../../../chat/viewSlot';
import { chatStartOf, transcriptBefore } from './forkStart';

export interface ChatForksDeps {
  readonly chats: ChatCollection;
  readonly sessions: SessionCoordinator;
  /** Shows chat `chatId` in `view` (the chat commands' switch). */
  readonly switchChat: (chatId: string, view: ViewSlot) => Promise<void>;
}

/**
 * Edit and resend: a past user message edited forks the chat at that message. The fork is a new chat
 * ("Fork of …") holding the transcript before the message, on a new session that is given that
 * transcript with its first prompt (as after a session that could not be taken up). The origin stays as
 * it was. `session/fork` is not used: it copies the whole session, with no point to fork at, so the
 * agent would still know the turns after the edited message.
 */
export class ChatForks {
  constructor(private readonly deps: ChatForksDeps) {}

  /** Forks the view's chat before its user message `entryId` and shows the fork in the view. */
  async fork(view: ViewSlot, entryId: string): Promise<Conversation> {
    const { chats, sessions, switchChat } = this.deps;
    const origin = chats.get(view.chatId);
    if (!origin) {
      throw new Error('No chat is open.');
    }
    if (origin.running) {
      throw new Error('Wait for the agent to finish (or stop it) before editing an earlier message.');
    }
    const thread = Thread.restore(transcriptBefore(origin.thread.snapshot(), entryId), chats.threadLimits);
    const title = cutText(`Fork of ${origin.title}`, STATE_BOUNDS.titleChars);
    const cwd = origin.cwd;
    const fork = chats.create(
      origin.agentId,
      chatStartOf({ of: origin.id, title, thread, ...(cwd === undefined ? {} : { cwd }) }),
    );
    await switchChat(fork.id, view);
    try {
      await sessions.startWithTranscript(fork);
    } catch (error) {
      // No session, so no way to give it the transcript: the fork goes, the user is back where they were.
      await switchChat(origin.id, view);
      await chats.delete(fork.id);
      throw error;
    }
    return fork;
  }
}
