import { DisposableStore, type Disposable, type Event } from '../../../core/util/disposable';
import type { Elicitation, ElicitationAnswer, HostMessage } from '../../../protocol';
import type { AnswerOutcome, ElicitationChange, PendingElicitation } from '../core/elicitationBroker';

/** The open questions as the chat reads and answers them (the `ElicitationBroker`). */
export interface ElicitationQuestions {
  readonly onDidChange: Event<ElicitationChange>;
  pending(sessionId?: string): PendingElicitation[];
  find(key: string): PendingElicitation | undefined;
  answer(key: string, answer: ElicitationAnswer): AnswerOutcome;
}

export interface ElicitationRelayDeps {
  /** The chat whose session is `sessionId`; a request-scoped question goes to the window's chat. */
  chatOf(question: PendingElicitation): string | undefined;
  postToChat(chatId: string, message: HostMessage): void;
  /** Opens an http(s) URL in the browser, once the user agreed. */
  openUrl(url: string): Promise<void>;
}

/**
 * The agent's questions in the chat: each change is posted to the views of the question's chat as
 * that one change (a question added or settled: a storm costs the views what it adds, never the
 * whole list again), and the views' answers go back to the broker, which checks them again — the
 * agent's patterns run only there — and whose objections go back to the views by field.
 * Accepting a URL question opens the URL — the click is the user's consent.
 */
export class ElicitationRelay implements Disposable {
  private readonly store = new DisposableStore();

  constructor(
    private readonly questions: ElicitationQuestions,
    private readonly host: ElicitationRelayDeps,
  ) {
    this.store.add(
      questions.onDidChange(({ question, settled }) => {
        const chatId = host.chatOf(question);
        if (chatId === undefined) {
          return;
        }
        host.postToChat(
          chatId,
          settled
            ? { type: 'elicitation_settled', chatId, key: question.elicitation.key }
            : { type: 'elicitation_added', chatId, item: question.elicitation },
        );
      }),
    );
  }

  /** The questions waiting in chat `chatId`, oldest first (a view's whole state, when it is drawn anew). */
  forChat(chatId: string): Elicitation[] {
    return this.questions
      .pending()
      .filter((question) => this.host.chatOf(question) === chatId)
      .map((question) => question.elicitation);
  }

  /** The user's answer from a view; an answer that does not fit the form is sent back with the reasons. */
  async answer(key: string, answer: ElicitationAnswer): Promise<void> {
    const question = this.questions.find(key);
    const outcome = this.questions.answer(key, answer);
    if (!outcome.ok) {
      const chatId = question && this.host.chatOf(question);
      if (outcome.reason === 'invalid' && chatId !== undefined) {
        this.host.postToChat(chatId, {
          type: 'elicitation_problems',
          chatId,
          key,
          problems: { ...outcome.problems },
        });
      }
      return; // not pending: already settled (Stop, the agent cancelled), nothing to do
    }
    if (answer.action === 'accept' && question?.elicitation.mode === 'url') {
      await this.host.openUrl(question.elicitation.url);
    }
  }

  dispose(): void {
    this.store.dispose();
  }
}
