import type * as acp from '@agentclientprotocol/sdk';
import { Emitter, type Disposable, type Event } from '../../../core/util/disposable';
import type { ElicitationPort, ElicitationRequest, Logger } from '../../../core/ports';
import {
  checkElicitationValues,
  type Elicitation,
  type ElicitationAnswer,
  type ElicitationValue,
} from '../../../protocol/elicitation';
import { parseElicitation } from './elicitationSchema';

/** An agent's question waiting for the user. */
export interface PendingElicitation {
  readonly agentId: string;
  /** Absent for a request-scoped elicitation (before any session, e.g. while signing in). */
  readonly sessionId?: string;
  readonly elicitation: Elicitation;
}

/** What became of an answer from the view. */
export type AnswerOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'not_pending' }
  | { readonly ok: false; readonly reason: 'invalid'; readonly problems: Readonly<Record<string, string>> };

interface Entry extends PendingElicitation {
  readonly elicitationId?: string;
  settle(response: acp.CreateElicitationResponse): void;
}

/**
 * The agent's elicitations waiting for the user, each a state that holds its resolver. The user's
 * answer (accept, decline, cancel), the request's signal (Stop, the session ending, the agent
 * cancelling or going away) and the agent's `elicitation/complete` all settle it; only the first
 * counts, so the agent gets exactly one answer.
 */
export class ElicitationBroker implements ElicitationPort, Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly changed = new Emitter<PendingElicitation>();
  private next = 1;

  /** A question appeared or was settled (read `pending()` for what is still open). */
  readonly onDidChange: Event<PendingElicitation> = this.changed.event;

  constructor(private readonly logger: Logger) {}

  request(request: ElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse> {
    const key = `elicit-${this.next++}`;
    // Throws the JSON-RPC error the agent receives when the request cannot be shown.
    const elicitation = parseElicitation(key, request.params);
    const elicitationId =
      'elicitationId' in request.params && typeof request.params.elicitationId === 'string'
        ? request.params.elicitationId
        : undefined;
    return new Promise((resolve) => {
      const entry: Entry = {
        agentId: request.agentId,
        ...(request.sessionId !== undefined ? { sessionId: request.sessionId } : {}),
        elicitation,
        ...(elicitationId !== undefined ? { elicitationId } : {}),
        settle: (response) => {
          if (!this.entries.delete(key)) {
            return;
          }
          signal.removeEventListener('abort', onAbort);
          this.logger.info(`Elicitation ${key} (${elicitation.mode}): ${response.action}`);
          resolve(response);
          this.changed.fire(entry);
        },
      };
      const onAbort = (): void => entry.settle({ action: 'cancel' });
      this.entries.set(key, entry);
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      this.changed.fire(entry);
    });
  }

  /** The agent finished a URL flow on its side: its question is void. */
  complete(elicitationId: string): void {
    for (const entry of [...this.entries.values()]) {
      if (entry.elicitationId === elicitationId) {
        entry.settle({ action: 'cancel' });
      }
    }
  }

  /** The questions still open, oldest first; of one session when `sessionId` is given. */
  pending(sessionId?: string): PendingElicitation[] {
    return [...this.entries.values()]
      .filter((entry) => sessionId === undefined || entry.sessionId === sessionId)
      .map(({ agentId, sessionId: id, elicitation }) => ({
        agentId,
        ...(id !== undefined ? { sessionId: id } : {}),
        elicitation,
      }));
  }

  /**
   * The user's answer to `key`. Form values are checked against the form again (the view is not
   * trusted); an invalid answer leaves the question open. A URL is accepted with no content.
   */
  answer(key: string, answer: ElicitationAnswer): AnswerOutcome {
    const entry = this.entries.get(key);
    if (!entry) {
      return { ok: false, reason: 'not_pending' };
    }
    if (answer.action !== 'accept') {
      entry.settle({ action: answer.action });
      return { ok: true };
    }
    if (entry.elicitation.mode === 'url') {
      entry.settle({ action: 'accept' });
      return { ok: true };
    }
    const values: Record<string, ElicitationValue> = { ...(answer.values ?? {}) };
    const problems = checkElicitationValues(entry.elicitation, values);
    if (Object.keys(problems).length > 0) {
      return { ok: false, reason: 'invalid', problems };
    }
    // Empty optional fields are left out rather than sent as "".
    const content = Object.fromEntries(
      Object.entries(values).filter(([, v]) => v !== '' && !(Array.isArray(v) && v.length === 0)),
    ) as Record<string, acp.ElicitationContentValue>;
    entry.settle({ action: 'accept', content });
    return { ok: true };
  }

  /** Cancels every open question of `sessionId` (or all): the chat was closed, the window goes. */
  cancelAll(sessionId?: string): void {
    for (const entry of [...this.entries.values()]) {
      if (sessionId === undefined || entry.sessionId === sessionId) {
        entry.settle({ action: 'cancel' });
      }
    }
  }

  dispose(): void {
    this.cancelAll();
    this.changed.dispose();
  }
}
