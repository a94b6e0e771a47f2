import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import { boundedJson } from '../util/boundedJson';
import type { Logger } from '../ports';
import { scrubSecrets } from '../secrets/secrets';

/** Characters of one traced message: enough to read a message, not to copy a 30 MB one. */
const TRACE_CHARS = 16 * 1024;
const TRACE_DEPTH = 64;

/** Keys whose string values are credentials, whatever their value (a secret we never saw is caught too). */
const AUTH_KEY = /api[-_]?key|token|secret|password|passwd|authorization|credential|cookie/i;
/** MCP servers' `env` and `headers`: every value hidden, the names kept (they say what was configured). */
const VALUE_LISTS = new Set(['env', 'headers']);
const REDACTED = '‹redacted›';

/**
 * Wraps an ACP stream so every message in both directions is written to the log at trace level.
 * Messages are serialized with depth and length limits: whatever an agent sends, tracing it can
 * neither overflow the stack nor allocate more than a few kilobytes. Credentials are redacted by key
 * and the known secret values scrubbed everywhere else.
 */
export function tracedStream(stream: Stream, logger: Logger): Stream {
  const trace = (direction: string) =>
    new TransformStream<AnyMessage, AnyMessage>({
      transform(message, controller) {
        logger.trace(`${direction} ${traceLine(message)}`);
        controller.enqueue(message);
      },
    });
  const outgoing = trace('client → agent');
  void outgoing.readable.pipeTo(stream.writable).catch(() => {});
  return { readable: stream.readable.pipeThrough(trace('agent → client')), writable: outgoing.writable };
}

/** One message as the trace writes it: redacted, bounded, scrubbed. */
export function traceLine(message: unknown): string {
  return scrubSecrets(
    boundedJson(redacted(message, TRACE_DEPTH), { maxChars: TRACE_CHARS, maxDepth: TRACE_DEPTH }),
  );
}

/** A copy of `value` with credential values replaced; depth-bounded like the serialization after it. */
function redacted(value: unknown, depth: number, hideAll = false): unknown {
  if (typeof value === 'string') {
    return hideAll ? REDACTED : value;
  }
  if (depth <= 0 || typeof value !== 'object' || value === null) {
    return value;
  }
  if (Array.isArray(value)) {
    return value.map((item) => redacted(item, depth - 1, hideAll));
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (hideAll && key === 'name') {
      out[key] = item; // `{ name, value }` pairs of env and headers: the name stays readable
    } else if (VALUE_LISTS.has(key)) {
      out[key] = redacted(item, depth - 1, true);
    } else if (typeof item === 'string' && AUTH_KEY.test(key)) {
      out[key] = REDACTED;
    } else {
      out[key] = redacted(item, depth - 1, hideAll);
    }
  }
  return out;
}
