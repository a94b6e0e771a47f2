import { RequestError } from '@agentclientprotocol/sdk';
import { AgentNotRunningError, describeExit, type ExitInfo } from './agentProcess';

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
  | 'untrusted';

/** A failed agent request, classified. The original JSON-RPC code and data are kept. */
export class AgentError extends Error {
  constructor(
    readonly kind: AgentErrorKind,
    message: string,
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'AgentError';
  }
}

/** The agent did not advertise the capability a call needs. */
export class NotSupportedError extends AgentError {
  constructor(agentName: string, feature: string) {
    super('not_supported', `${feature} is not supported by ${agentName}.`);
    this.name = 'NotSupportedError';
  }
}

/** The agent process ended while a request was outstanding. */
export class AgentExitedError extends AgentError {
  constructor(
    readonly exit: ExitInfo | undefined,
    readonly stderrTail: readonly string[],
  ) {
    super('process_exited', `The agent ${exit ? describeExit(exit) : 'stopped'}.`);
    this.name = 'AgentExitedError';
  }
}

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
  if (error instanceof RequestError || isJsonRpcErrorShape(error)) {
    const { code, message, data } = error;
    return new AgentError(kindOfCode(code, message, data), withReason(message, data), code, data);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new AgentError('internal', message);
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
