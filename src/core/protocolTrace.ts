import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import { boundedJson } from './boundedJson';
import type { Logger } from './ports';

/** Characters of one traced message: enough to read a message, not to copy a 30 MB one. */
const TRACE_CHARS = 16 * 1024;
const TRACE_DEPTH = 64;

/**
 * Wraps an ACP stream so every message in both directions is written to the log at trace level.
 * Messages are serialized with depth and length limits: whatever an agent sends, tracing it can
 * neither overflow the stack nor allocate more than a few kilobytes.
 */
export function tracedStream(stream: Stream, logger: Logger): Stream {
  const trace = (direction: string) =>
    new TransformStream<AnyMessage, AnyMessage>({
      transform(message, controller) {
        logger.trace(
          `${direction} ${boundedJson(message, { maxChars: TRACE_CHARS, maxDepth: TRACE_DEPTH })}`,
        );
        controller.enqueue(message);
      },
    });
  const outgoing = trace('client → agent');
  void outgoing.readable.pipeTo(stream.writable).catch(() => {});
  return { readable: stream.readable.pipeThrough(trace('agent → client')), writable: outgoing.writable };
}
