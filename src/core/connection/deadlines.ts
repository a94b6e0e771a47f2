import { abortable } from '../util/abortable';
import { timeoutSignal, type Clock } from '../util/clock';
import { AgentError, AgentTimeoutError } from './errors';

/**
 * How long each kind of request to an agent may go unanswered. `session/prompt` has none: a turn may
 * rightly run for an hour, and Stop is the user's to press.
 */
export interface RequestDeadlines {
  /** `initialize`: the agent starting up. */
  readonly startMs: number;
  /** `session/new`, `session/load`, `session/resume`: a chat's session being set up. */
  readonly sessionMs: number;
  /** `authenticate`, `logout`: the user may be signing in in a browser meanwhile. */
  readonly signInMs: number;
  /** Everything else: a mode or setting changed, sessions listed, closed or deleted. */
  readonly requestMs: number;
}

/** The defaults (also the settings' defaults, `acpAgents.timeouts.*`): session setup gets the agent check's 20 s. */
export const DEFAULT_DEADLINES: RequestDeadlines = {
  startMs: 30_000,
  sessionMs: 20_000,
  signInMs: 300_000,
  requestMs: 20_000,
};

/** Each request we send an agent: which deadline it has and why we send it (said when it times out). */
const REQUESTS = {
  initialize: { deadline: 'startMs', purpose: 'starting up' },
  'session/new': { deadline: 'sessionMs', purpose: 'opening a session for the chat' },
  'session/load': { deadline: 'sessionMs', purpose: 'loading the chat’s session' },
  'session/resume': { deadline: 'sessionMs', purpose: 'resuming the chat’s session' },
  authenticate: { deadline: 'signInMs', purpose: 'signing in' },
  logout: { deadline: 'signInMs', purpose: 'signing out' },
  'session/set_mode': { deadline: 'requestMs', purpose: 'changing the mode' },
  'session/set_config_option': { deadline: 'requestMs', purpose: 'changing a setting' },
  'session/list': { deadline: 'requestMs', purpose: 'listing its sessions' },
  'session/close': { deadline: 'requestMs', purpose: 'closing a session' },
  'session/delete': { deadline: 'requestMs', purpose: 'deleting a session' },
} as const satisfies Record<string, { deadline: keyof RequestDeadlines; purpose: string }>;

/** A request that has a deadline (every one we send but `session/prompt`). */
export type TimedMethod = keyof typeof REQUESTS;

/** What a deadline needs of the connection. */
export interface DeadlineHost {
  readonly deadlines: RequestDeadlines;
  readonly clock: Clock;
  /** The agent's name, for the message. */
  agentName(): string;
  /** Its last stderr lines (scrubbed, bounded), for the error. */
  stderrTail(): readonly string[];
}

export interface DeadlineOptions<T> {
  /** Abandoned (Stop, the chat deleted, the agent stopped): cancelled on the agent, rejects with its reason. */
  readonly abandon?: AbortSignal;
  /** An answer that comes after the deadline or the abandonment (e.g. a session nobody waits for, to close). */
  readonly late?: (value: T) => void;
}

/** The deadline's length and the wording of its timeout, for a method. */
export function deadlineOf(
  host: Pick<DeadlineHost, 'deadlines'>,
  method: TimedMethod,
): { readonly ms: number; readonly purpose: string } {
  const { deadline, purpose } = REQUESTS[method];
  return { ms: host.deadlines[deadline], purpose };
}

/**
 * Sends a request with its deadline: past it the agent is told (`$/cancel_request`, through the
 * cancellation signal `send` passes to the SDK) and the call rejects with an `AgentTimeoutError` that
 * says what was asked and why, with the agent's last stderr lines. The agent's eventual answer is
 * not waited for; a successful one goes to `late`.
 */
export async function withinDeadline<T>(
  host: DeadlineHost,
  method: TimedMethod,
  send: (cancellation: AbortSignal) => Promise<T>,
  options: DeadlineOptions<T> = {},
): Promise<T> {
  const { ms, purpose } = deadlineOf(host, method);
  const timeout = timeoutSignal(ms, host.clock);
  const stopWaiting = options.abandon ? AbortSignal.any([timeout.signal, options.abandon]) : timeout.signal;
  const cancellation = new AbortController();
  const cancel = (): void => cancellation.abort(stopWaiting.reason);
  if (stopWaiting.aborted) {
    cancel(); // still sent, then cancelled at once: the agent hears of it either way
  } else {
    stopWaiting.addEventListener('abort', cancel, { once: true });
  }
  const request = send(cancellation.signal);
  try {
    return await abortable(request, stopWaiting);
  } catch (error) {
    if (timeout.signal.aborted && error === timeout.signal.reason) {
      throw new AgentTimeoutError(
        `${host.agentName()} did not answer ${method} (${purpose}) within ${seconds(ms)}.`,
        method,
        host.stderrTail(),
      );
    }
    if (options.abandon?.aborted && error === options.abandon.reason) {
      throw new AgentError(
        'cancelled',
        `${method} was cancelled: ${reasonText(error)}`,
        undefined,
        undefined,
        {
          cause: error,
        },
      );
    }
    throw error;
  } finally {
    timeout.dispose();
    stopWaiting.removeEventListener('abort', cancel);
    if (stopWaiting.aborted) {
      request.then((value) => options.late?.(value)).catch(() => undefined);
    }
  }
}

function reasonText(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}

/** `20 s`, `1.5 s`, `5 min`. */
export function seconds(ms: number): string {
  if (ms >= 120_000 && ms % 60_000 === 0) {
    return `${ms / 60_000} min`;
  }
  return `${Math.round(ms / 100) / 10} s`;
}
