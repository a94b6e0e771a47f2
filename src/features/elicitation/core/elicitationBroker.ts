import type * as acp from '@agentclientprotocol/sdk';
import { Emitter, type Disposable, type Event } from '../../../core/util/disposable';
import { PortRequestError, type ElicitationPort, type ElicitationRequest, type Logger } from '../../../core/ports';
import {
  checkElicitationValues,
  type Elicitation,
  type ElicitationAnswer,
  type ElicitationValue,
} from '../../../protocol/elicitation';
import type { CompiledPattern, PatternTest } from './agentPattern';
import { compilePatterns, parseElicitation } from './elicitationSchema';

/** Questions that may wait for the user in one session (or one agent, before any session); more are refused. */
export const MAX_WAITING_ELICITATIONS = 8;

/** An agent's question waiting for the user. */
export interface PendingElicitation {
  readonly agentId: string;
  /** Absent for a request-scoped elicitation (before any session, e.g. while signing in). */
  readonly sessionId?: string;
  readonly elicitation: Elicitation;
}

/** A question appeared (`settled: false`) or was settled, one way or another. */
export interface ElicitationChange {
  readonly question: PendingElicitation;
  readonly settled: boolean;
}

/** What became of an answer from the view. */
export type AnswerOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'not_pending' }
  | { readonly ok: false; readonly reason: 'invalid'; readonly problems: Readonly<Record<string, string>> };

/** Compiles an agent's pattern for a linear-time engine (`compileAgentPattern`, loaded with its bundle). */
export type PatternCompiler = (pattern: string) => CompiledPattern;

interface Entry extends PendingElicitation {
  readonly elicitationId?: string;
  /** Where it waits: its session, or its agent when request-scoped (the bound counts per scope). */
  readonly scope: string;
  readonly patterns: ReadonlyMap<string, PatternTest>;
  settle(response: acp.CreateElicitationResponse): void;
}

/**
 * The agent's elicitations waiting for the user, each a state that holds its resolver. The user's
 * answer (accept, decline, cancel), the request's signal (Stop, the session ending, the agent
 * cancelling or going away) and the agent's `elicitation/complete` all settle it; only the first
 * counts, so the agent gets exactly one answer. At most `MAX_WAITING_ELICITATIONS` wait per session:
 * beyond that the agent's request is refused with an error saying so, as permission requests are.
 */
export class ElicitationBroker implements ElicitationPort, Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly changed = new Emitter<ElicitationChange>();
  /** Scopes whose refusals were logged since their queue was last below the bound. */
  private readonly refusalsLogged = new Set<string>();
  private next = 1;

  /** A question appeared or was settled. */
  readonly onDidChange: Event<ElicitationChange> = this.changed.event;

  constructor(
    private readonly logger: Logger,
    private readonly compilePattern: PatternCompiler,
  ) {}

  request(request: ElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse> {
    const scope = request.sessionId !== undefined ? `session:${request.sessionId}` : `agent:${request.agentId}`;
    this.refuseBeyondBound(scope);
    const key = `elicit-${this.next++}`;
    // Each throws the JSON-RPC error the agent receives when the request cannot be shown.
    const elicitation = parseElicitation(key, request.params);
    const patterns = compilePatterns(elicitation, this.compilePattern);
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
        scope,
        patterns,
        settle: (response) => {
          if (!this.entries.delete(key)) {
            return;
          }
          signal.removeEventListener('abort', onAbort);
          this.logger.info(`Elicitation ${key} (${elicitation.mode}): ${response.action}`);
          resolve(response);
          this.changed.fire({ question: publicOf(entry), settled: true });
        },
      };
      const onAbort = (): void => entry.settle({ action: 'cancel' });
      this.entries.set(key, entry);
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      this.changed.fire({ question: publicOf(entry), settled: false });
    });
  }

  /** Refuses the request when its session already has the most questions that may wait. */
  private refuseBeyondBound(scope: string): void {
    let waiting = 0;
    for (const entry of this.entries.values()) {
      waiting += entry.scope === scope ? 1 : 0;
    }
    if (waiting < MAX_WAITING_ELICITATIONS) {
      this.refusalsLogged.delete(scope);
      return;
    }
    const reason = `${MAX_WAITING_ELICITATIONS} questions of this session already wait for the user`;
    if (!this.refusalsLogged.has(scope)) {
      this.refusalsLogged.add(scope);
      this.logger.warn(`Elicitations refused (${scope}): ${reason}.`);
    }
    throw new PortRequestError(-32000, `Elicitation refused: ${reason}.`, { reason: 'too_many' });
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
      .map(publicOf);
  }

  /** The open question `key`, if it is still open. */
  find(key: string): PendingElicitation | undefined {
    const entry = this.entries.get(key);
    return entry && publicOf(entry);
  }

  /**
   * The user's answer to `key`. Form values are checked against the form again (the view is not
   * trusted, and only the host runs the agent's patterns); an invalid answer leaves the question
   * open. A URL is accepted with no content.
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
    const problems = checkElicitationValues(
      entry.elicitation,
      values,
      (pattern, value) => entry.patterns.get(pattern)?.(value) ?? false,
    );
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

function publicOf({ agentId, sessionId, elicitation }: Entry): PendingElicitation {
  return { agentId, ...(sessionId !== undefined ? { sessionId } : {}), elicitation };
}
