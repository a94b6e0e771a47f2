import { DisposableStore, type Disposable, type Event } from '../../../core/util/disposable';
import { AgentError } from '../../../core/connection/errors';
import type { Elicitation, ElicitationAnswer, HostMessage } from '../../../protocol';
import type { AnswerOutcome, PendingElicitation } from '../core/elicitationBroker';

/** The open questions as the chat reads and answers them (the `ElicitationBroker`). */
export interface ElicitationQuestions {
  readonly onDidChange: Event<PendingElicitation>;
  pending(sessionId?: string): PendingElicitation[];
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
 * that chat's whole list, and the views' answers go back to the broker (which checks them again).
 * Accepting a URL question opens the URL — the click is the user's consent.
 */
export class ElicitationRelay implements Disposable {
  private readonly store = new DisposableStore();

  constructor(
    private readonly questions: ElicitationQuestions,
    private readonly host: ElicitationRelayDeps,
  ) {
    this.store.add(
      questions.onDidChange((question) => {
        const chatId = host.chatOf(question);
        if (chatId !== undefined) {
          host.postToChat(chatId, { type: 'elicitations', chatId, items: this.forChat(chatId) });
        }
      }),
    );
  }

  /** The questions waiting in chat `chatId`, oldest first. */
  forChat(chatId: string): Elicitation[] {
    return this.questions
      .pending()
      .filter((question) => this.host.chatOf(question) === chatId)
      .map((question) => question.elicitation);
  }

  /** The user's answer from a view; an answer that does not fit the form is refused with the reasons. */
  async answer(key: string, answer: ElicitationAnswer): Promise<void> {
    const question = this.questions.pending().find((q) => q.elicitation.key === key);
    const outcome = this.questions.answer(key, answer);
    if (!outcome.ok) {
      if (outcome.reason === 'not_pending') {
        return; // already settled (Stop, the agent cancelled): nothing to do
      }
      throw new AgentError(
        'invalid_params',
        `The answer was not sent: ${Object.values(outcome.problems).join(' ')}`,
      );
    }
    if (answer.action === 'accept' && question?.elicitation.mode === 'url') {
      await this.host.openUrl(question.elicitation.url);
    }
  }

  dispose(): void {
    this.store.dispose();
  }
}
