import { MessageTooLargeError } from '@agentclientprotocol/sdk';
import { shorten } from '../util/boundedJson';
import { AgentError } from './errors';
import { OversizedMessageError } from './lineGuard';

/**
 * The ACP connection closed while the agent process still ran: the agent sent something the
 * connection cannot go on from. The agent is stopped; the kind is `process_exited` because, for
 * the user, it is the same situation — the agent is gone, the next message starts it again.
 */
export class ConnectionLostError extends AgentError {
  constructor(
    readonly reason: unknown,
    agentName: string,
  ) {
    super(
      'process_exited',
      `${agentName} ${whatWasSent(reason)}, so it was stopped. Your next message restarts it.`,
    );
    this.name = 'ConnectionLostError';
  }
}

/** The agent closed its stdout but its process did not end. */
export class OutputClosedError extends Error {
  constructor() {
    super('The agent closed its output but kept running.');
    this.name = 'OutputClosedError';
  }
}

function whatWasSent(cause: unknown): string {
  if (cause instanceof OutputClosedError) {
    return 'closed its output but kept running';
  }
  const limit =
    cause instanceof OversizedMessageError
      ? cause.maxBytes
      : cause instanceof MessageTooLargeError
        ? cause.maxMessageBytes
        : undefined;
  if (limit !== undefined) {
    return `sent a message larger than ${Math.round(limit / (1024 * 1024))} MiB`;
  }
  return 'sent malformed data';
}

/** The cause in a few words, for the log (never the whole value: it came from the agent). */
export function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    return shorten(`${cause.name}: ${cause.message}`, 300);
  }
  return cause === undefined ? 'the connection closed' : shorten(String(cause), 300);
}
