import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import { measuredJson } from '../util/boundedJson';

/** Characters of an error's `data` sent back to the agent. */
const ERROR_DATA_CHARS = 2000;

/**
 * Bounds what goes back to the agent in our error responses. The SDK answers an invalid message
 * with an error whose `data` (and sometimes `id`) echoes what the agent sent; a 10,000-level value
 * there makes the SDK's `JSON.stringify` overflow the stack and close the connection, and a huge
 * one is copied back whole. Error data too deep or too long for that is replaced by a bounded
 * description (small data goes unchanged); an id that is not a JSON-RPC id becomes null.
 */
export function guardedOutgoing(stream: Stream): Stream {
  const guard = new TransformStream<AnyMessage, AnyMessage>({
    transform(message, controller) {
      controller.enqueue(boundErrorResponse(message));
    },
  });
  void guard.readable.pipeTo(stream.writable).catch(() => {});
  return { readable: stream.readable, writable: guard.writable };
}

function boundErrorResponse(message: AnyMessage): AnyMessage {
  if (!('error' in message) || typeof message.error !== 'object' || message.error === null) {
    return message;
  }
  const id = message.id;
  const validId = id === null || typeof id === 'string' || typeof id === 'number';
  const { data, ...error } = message.error as { code: number; message: string; data?: unknown };
  const measured =
    data === undefined ? undefined : measuredJson(data, { maxChars: ERROR_DATA_CHARS, maxDepth: 16 });
  const messageFits = typeof error.message === 'string' && error.message.length <= ERROR_DATA_CHARS;
  if (validId && messageFits && (measured === undefined || measured.fits)) {
    return message;
  }
  return {
    ...message,
    id: validId ? id : null,
    error: {
      ...error,
      message: typeof error.message === 'string' ? error.message.slice(0, ERROR_DATA_CHARS) : 'Error',
      ...(measured === undefined ? {} : { data: measured.fits ? data : measured.text }),
    },
  } as AnyMessage;
}
