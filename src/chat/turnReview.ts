import type { ChangeReview } from '../features/checkpoints/chat/changeReview';
import { problemsPrompt, type ProblemsWatch } from '../features/problems/chat/problemsOffer';
import { chatOf } from './chatCommands';
import type { ChatCollection } from './chatCollection';
import type { ChatTurns } from './chatTurns';
import type { ViewSlot } from './viewSlot';
import type { EditorActions, EditReviews } from './viewSink';

export interface TurnReviewDeps {
  readonly chats: ChatCollection;
  readonly turns: ChatTurns;
  readonly changes?: ChangeReview;
  readonly reviews?: EditReviews;
  readonly problems?: ProblemsWatch;
  readonly relativePath: (path: string) => string;
  readonly editor: EditorActions;
}

/**
 * After a turn: its change card (diff, keep, undo, restore), inline edit reviews, new problems to fix, and a
 * long message read whole.
 */
export class TurnReview {
  constructor(private readonly deps: TurnReviewDeps) {}

  /** The change card's actions on the view's chat's turn `turnId`. */
  async turnChanges(
    turnId: string,
    action: 'diff' | 'keep' | 'undo',
    path: string | undefined,
    view: ViewSlot,
  ): Promise<void> {
    await this.changeReview().act(chatOf(this.deps.chats, view).thread, turnId, action, path);
  }

  /**
   * Puts the workspace back to before the view's chat's turn `turnId` (the user confirms first); resolves
   * false when the user declined.
   */
  async restoreCheckpoint(turnId: string, view: ViewSlot): Promise<boolean> {
    return this.changeReview().restore(chatOf(this.deps.chats, view).thread, turnId);
  }

  /**
   * Edit and resend's offer: the workspace back to before the turn the user message `entryId` started;
   * resolves false when the user declined (then nothing may be sent).
   */
  async restoreBeforeMessage(entryId: string, view: ViewSlot): Promise<boolean> {
    const turnId = chatOf(this.deps.chats, view).thread.entry(entryId)?.turnId;
    return turnId === undefined || this.restoreCheckpoint(turnId, view);
  }

  answerReview(id: string, decision: 'keep' | 'undo'): void {
    if (!this.deps.reviews?.answer(id, decision)) {
      throw new Error('That edit was already decided.');
    }
  }

  /** Sends the problems offered after turn `turnId` to the view's chat's agent as the next prompt. */
  async fixProblems(turnId: string, view: ViewSlot): Promise<void> {
    const chat = chatOf(this.deps.chats, view);
    if (!this.deps.problems) {
      throw new Error('Problems are not available here.');
    }
    if (chat.running) {
      throw new Error('A turn is running: wait for it to end (or stop it), then fix the problems.');
    }
    const offer = this.deps.problems.take(chat.id, turnId);
    await this.deps.turns.sendPrompt(problemsPrompt(offer.problems, this.deps.relativePath), view);
  }

  /** "Open the whole message": the view's chat's message `entryId` as the thread (and journal) hold it. */
  async openMessage(entryId: string, view: ViewSlot): Promise<void> {
    const entry = chatOf(this.deps.chats, view).thread.entry(entryId);
    if (!entry || entry.kind === 'tool_call') {
      throw new Error('That message is no longer in the chat.');
    }
    await this.deps.editor.openReadOnly?.(`Message ${entryId}.md`, entry.text);
  }

  dismissProblems(view: ViewSlot): void {
    this.deps.problems?.dismiss(view.chatId);
  }

  private changeReview(): ChangeReview {
    if (!this.deps.changes) {
      throw new Error('Reviewing changes needs a workspace folder.');
    }
    return this.deps.changes;
  }
}
