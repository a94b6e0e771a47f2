import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import type { Logger } from './ports';

/** Wraps an ACP stream so every message in both directions is written to the log at trace level. */
export function tracedStream(stream: Stream, logger: Logger): Stream {
  const trace = (direction: string) =>
    new TransformStream<AnyMessage, AnyMessage>({
      transform(message, controller) {
        logger.trace(`${direction} ${JSON.stringify(message)}`);
        controller.enqueue(message);
      },
    });
  const outgoing = trace('client → agent');
  void outgoing.readable.pipeTo(stream.writable).catch(() => {});
  return { readable: stream.readable.pipeThrough(trace('agent → client')), writable: outgoing.writable };
}
