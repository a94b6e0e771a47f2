import type { Disposable } from '../../../core/util/disposable';
import type { Logger } from '../../../core/ports';
import type { UserPrompts } from '../../../vscode/userPrompts';
import type { ElicitationQuestions } from '../chat/elicitationRelay';
import type { ElicitationChange, PendingElicitation } from '../core/elicitationBroker';

const SHOW = 'Show Chat';

export interface NoticeSurfaces {
  /** Whether a view showing the question's chat is on screen (the permission rule). */
  readonly chatVisible: (question: PendingElicitation) => boolean;
  /** Brings the chat of the question into view (the sidebar, or its tab). */
  readonly reveal: (question: PendingElicitation) => Promise<void>;
}

/**
 * A question that arrives while its chat is hidden follows the permission rule: the form is always
 * answered in the chat, so a notification says the agent is waiting and "Show Chat" reveals it. One
 * notification per session, however many questions it asks (they are answered in the chat one after
 * another); it goes away once none of them is open any more.
 */
export class ElicitationNotice implements Disposable {
  /** By session (or agent, before any session): the open notification's closer. */
  private readonly open = new Map<string, AbortController>();
  private readonly subscription: Disposable;

  constructor(
    private readonly questions: ElicitationQuestions,
    private readonly prompts: UserPrompts,
    private readonly surfaces: NoticeSurfaces,
    private readonly logger: Logger,
  ) {
    this.subscription = questions.onDidChange((change) => this.changed(change));
  }

  private changed({ question, settled }: ElicitationChange): void {
    const scope = scopeOf(question);
    if (settled) {
      const stillAsking = this.questions.pending().some((q) => scopeOf(q) === scope);
      if (!stillAsking) {
        this.open.get(scope)?.abort();
        this.open.delete(scope);
      }
      return;
    }
    if (this.open.has(scope) || this.surfaces.chatVisible(question)) {
      return;
    }
    const abort = new AbortController();
    this.open.set(scope, abort);
    const what = question.elicitation.mode === 'url' ? 'asks you to open a page' : 'asks for input';
    this.prompts
      .notify(`The agent ${what}: ${question.elicitation.message.slice(0, 200)}`, [SHOW], abort.signal)
      .then(async (choice) => {
        if (choice === SHOW) {
          await this.surfaces.reveal(question);
        }
      })
      .catch((error: unknown) => this.logger.error(`Could not show the agent's question: ${String(error)}`))
      .finally(() => {
        if (this.open.get(scope) === abort) {
          this.open.delete(scope);
        }
      });
  }

  dispose(): void {
    this.subscription.dispose();
    for (const abort of this.open.values()) {
      abort.abort();
    }
    this.open.clear();
  }
}

function scopeOf(question: PendingElicitation): string {
  return question.sessionId !== undefined ? `session:${question.sessionId}` : `agent:${question.agentId}`;
}
