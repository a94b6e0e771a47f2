import { AgentNotRunningError, describeExit, type ExitInfo } from './agentProcess';
import { safeAgentText, plainText } from '../thread/agentText';
import { boundedJson } from '../util/boundedJson';
import { isBrandedInstance } from '../util/bundleBrand';
import { scrubSecrets } from '../secrets/secrets';
import type { ErrorDetails } from '../thread/threadTypes';

/** Why an agent request failed, in terms the UI can act on. */
export type AgentErrorKind =
  | 'auth_required'
  | 'invalid_params'
  | 'not_found'
  | 'not_supported'
  | 'rate_limited'
  | 'timeout'
  | 'cancelled'
  | 'internal'
  | 'process_exited'
  | 'untrusted'
  /** The workspace's own settings define the agent and the user did not allow it to run. */
  | 'not_allowed';

/**
 * A failed agent request, classified. The original JSON-RPC code and data are kept, and the error
 * it was made from is its `cause`, so wrapping never loses what the agent said.
 */
export class AgentError extends Error {
  /** Made in the connection's bundle, checked in the chat's: `instanceof` by brand (./bundleBrand). */
  static readonly brand: string = 'acp-agents:AgentError';
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBrandedInstance(this, value);
  }

  constructor(
    readonly kind: AgentErrorKind,
    message: string,
    readonly code?: number,
    readonly data?: unknown,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'AgentError';
  }
}

/** The agent did not advertise the capability a call needs. */
export class NotSupportedError extends AgentError {
  static override readonly brand: string = 'acp-agents:NotSupportedError';

  constructor(agentName: string, feature: string) {
    super('not_supported', `${feature} is not supported by ${agentName}.`);
    this.name = 'NotSupportedError';
  }
}

/** The agent process ended while a request was outstanding. */
export class AgentExitedError extends AgentError {
  static override readonly brand: string = 'acp-agents:AgentExitedError';

  constructor(
    readonly exit: ExitInfo | undefined,
    readonly stderrTail: readonly string[],
  ) {
    super('process_exited', `The agent ${exit ? describeExit(exit) : 'stopped'}.`);
    this.name = 'AgentExitedError';
  }
}

/**
 * The agent did not answer a request in time. Its last stderr lines go along: an agent that hangs
 * often said why there (a refusal to run as root, a missing sandbox tool).
 */
export class AgentTimeoutError extends AgentError {
  static override readonly brand: string = 'acp-agents:AgentTimeoutError';

  constructor(
    message: string,
    /** The request that was not answered (`session/new`, …). */
    readonly method: string,
    readonly stderrTail: readonly string[],
  ) {
    super('timeout', message);
    this.name = 'AgentTimeoutError';
  }
}

/** The agent's last stderr lines a failure carries (an exit's or a timeout's), else none. */
export function stderrTailOf(error: unknown): readonly string[] {
  return error instanceof AgentExitedError || error instanceof AgentTimeoutError ? error.stderrTail : [];
}

/**
 * The code we answer an agent's request with when the client refuses it (the user declined, the
 * path is outside the workspace, …), so the agent can tell a decision from an "Internal error"
 * (-32603, kept for real failures). ACP defines no such code; -32001 is in JSON-RPC's server-error
 * range and unused by ACP (-32000 auth required, -32002 resource not found, -32022 unsupported
 * version, -32042 URL elicitation), and it is the code ACP agents already look for as a refusal.
 * `data.reason` says which refusal it is.
 */
export const CLIENT_REFUSED = -32001;

/** ACP's "auth required" code (the SDK's `RequestError.authRequired`). */
const AUTH_REQUIRED = -32000;
const RESOURCE_NOT_FOUND = -32002;
const REQUEST_CANCELLED = -32800;

/**
 * Classifies anything a request can reject with. JSON-RPC codes decide where the protocol defines
 * one; rate limits have no ACP code, so agents report them as HTTP 429 in the code, the data, or
 * only in the message text — the last is the one place text is looked at.
 */
export function classifyError(error: unknown): AgentError {
  if (error instanceof AgentError) {
    return error;
  }
  if (error instanceof AgentNotRunningError) {
    return new AgentExitedError(error.exit, []);
  }
  // The SDK's RequestError, whichever bundle's copy of the SDK made it.
  if (isJsonRpcErrorShape(error)) {
    const { code, message, data } = error;
    // The agent's words: bounded, plain and without secrets wherever the message goes from here.
    const said = safeAgentText(withReason(typeof message === 'string' ? message : String(message), data));
    return new AgentError(kindOfCode(code, message, data), said, code, data, {
      cause: error,
    });
  }
  if (error instanceof Error) {
    return new AgentError('internal', safeAgentText(error.message), undefined, undefined, { cause: error });
  }
  return new AgentError('internal', safeAgentText(String(error)));
}

/**
 * How much of an error's `data` the chat and the journal keep. The data is the agent's, so it can
 * be anything (a stack trace, a whole HTTP response): enough to diagnose, small enough to journal.
 */
export const MAX_ERROR_DATA_CHARS = 2000;

/**
 * An error as the thread, the journal and the view keep it: kind, message, JSON-RPC code and the
 * agent's `data` as bounded, pretty-printed text (a string is kept as written, so a stack trace
 * reads as lines). Anything can be passed; it is classified first.
 */
export function errorDetails(error: unknown): ErrorDetails {
  const classified = classifyError(error);
  const data = errorDataText(classified.data);
  return {
    kind: classified.kind,
    // An AgentError made elsewhere (e.g. with the agent's stderr in it) is made safe here too.
    message: safeAgentText(classified.message),
    ...(classified.code === undefined ? {} : { code: classified.code }),
    ...(data === undefined ? {} : { data }),
  };
}

/** The agent's `data` as text for a person: bounded, pretty-printed, never more than the limit. */
export function errorDataText(data: unknown): string | undefined {
  if (data === undefined || data === null) {
    return undefined;
  }
  if (typeof data === 'string') {
    const trimmed = data.trim();
    if (trimmed === '') {
      return undefined;
    }
    const plain = scrubSecrets(plainText(trimmed));
    return plain.length > MAX_ERROR_DATA_CHARS
      ? `${plain.slice(0, MAX_ERROR_DATA_CHARS)}… (cut at ${MAX_ERROR_DATA_CHARS} characters)`
      : plain;
  }
  return scrubSecrets(
    plainText(boundedJson(data, { indent: 2, maxDepth: 8, maxChars: MAX_ERROR_DATA_CHARS })),
  );
}

/** How many wrapped causes a log line follows: a cycle or a deep chain must not run away. */
const MAX_LOGGED_CAUSES = 4;

/**
 * An error for the log: its message, then kind and code, the agent's data and the chain of
 * causes, so the Output panel has everything the protocol carried.
 */
export function describeErrorForLog(error: unknown): string {
  const classified = classifyError(error);
  const facts = [classified.kind, ...(classified.code === undefined ? [] : [`code ${classified.code}`])];
  const lines = [`${classified.message} [${facts.join(', ')}]`];
  const data = errorDataText(classified.data);
  if (data !== undefined) {
    lines.push(`  data: ${data.replaceAll('\n', '\n  ')}`);
  }
  // A cause whose message was already written (classifyError wraps its input) adds nothing.
  const said = new Set([classified.message]);
  let cause: unknown = classified.cause;
  for (let depth = 0; cause !== undefined && depth < MAX_LOGGED_CAUSES; depth++) {
    const message = safeAgentText(
      cause instanceof Error ? cause.message : boundedJson(cause, { maxChars: 500 }),
    );
    if (![...said].some((earlier) => earlier.includes(message))) {
      said.add(message);
      lines.push(`  caused by ${cause instanceof Error ? `${cause.name}: ` : ''}${message}`);
    }
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return lines.join('\n');
}

/** How much of the agent's own explanation a message carries: enough to read, not a stack dump. */
export const MAX_REASON_CHARS = 500;

/**
 * The agent's own words about a failure travel in the JSON-RPC error's `data` (a string, or the
 * SDK's `{ details }`, or an object with a `message`), while the message is often only "Internal
 * error". The reason is appended, bounded, unless the message already says it.
 */
function withReason(message: string, data: unknown): string {
  const reason = reasonOf(data)?.trim();
  if (!reason || message.includes(reason)) {
    return message;
  }
  const bounded = reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS - 1)}…` : reason;
  return `${message}: ${bounded}`;
}

function reasonOf(data: unknown): string | undefined {
  if (typeof data === 'string') {
    return data;
  }
  if (typeof data !== 'object' || data === null) {
    return undefined;
  }
  const record = data as Record<string, unknown>;
  for (const key of ['details', 'message']) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') {
      return value;
    }
  }
  return undefined;
}

function kindOfCode(code: number, message: string, data: unknown): AgentErrorKind {
  switch (code) {
    case AUTH_REQUIRED:
      return 'auth_required';
    case -32602:
      return 'invalid_params';
    case RESOURCE_NOT_FOUND:
      return 'not_found';
    case -32601:
      return 'not_supported';
    case REQUEST_CANCELLED:
      return 'cancelled';
    case 429:
      return 'rate_limited';
    default:
      return serverError(message, data);
  }
}

function serverError(message: string, data: unknown): AgentErrorKind {
  if (hasHttpStatus(data, 429) || /\brate.?limit|\b429\b|too many requests/i.test(message)) {
    return 'rate_limited';
  }
  if (hasHttpStatus(data, 401) || /\bunauthori[sz]ed\b|\b401\b/i.test(message)) {
    return 'auth_required';
  }
  return 'internal';
}

function hasHttpStatus(data: unknown, status: number): boolean {
  if (typeof data !== 'object' || data === null) {
    return false;
  }
  const record = data as Record<string, unknown>;
  return record['status'] === status || record['statusCode'] === status || record['httpStatus'] === status;
}

function isJsonRpcErrorShape(error: unknown): error is { code: number; message: string; data?: unknown } {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'number' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}
