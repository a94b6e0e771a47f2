import { DEFAULT_MAX_MESSAGE_BYTES } from '@agentclientprotocol/sdk';

const NEWLINE = 0x0a;

/** What was dropped from an agent's stdout, for the log. */
export interface RejectedLine {
  /** The start of the line (at most 200 characters). */
  readonly preview: string;
  readonly bytes: number;
}

/** The SDK's own cap on one message, so that the guard and the SDK agree (32 MiB). */
export const MAX_LINE_BYTES = DEFAULT_MAX_MESSAGE_BYTES;

/** The agent wrote a line longer than the limit: the connection cannot go on (the message is lost). */
export class OversizedMessageError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The agent sent a message larger than ${formatBytes(maxBytes)}.`);
    this.name = 'OversizedMessageError';
  }
}

/**
 * Sits between an agent's stdout and the SDK's newline-delimited JSON reader and drops lines that
 * cannot be a JSON-RPC message (banners, debug prints, a torn line), reporting each one. The SDK
 * would answer such a line with a parse error the agent never asked for; here it is logged and the
 * session goes on. Only the first and last byte of a line are inspected, so large messages cost
 * nothing extra.
 *
 * A line (also one still waiting for its newline) longer than `maxLineBytes` errors the stream
 * with `OversizedMessageError` as soon as the limit is passed: nothing beyond the limit is held.
 *
 * Why this is not left to the SDK (2.4): its `ndJsonStream` splits lines itself and bounds them
 * (`maxMessageBytes`), but answers every line that is not JSON with a `-32700` parse error sent to
 * the agent, and has no hook to skip or report one. Judging a line needs its last byte, so the
 * guard holds a line until its newline, which is why it needs a bound of its own; a line it passes
 * costs only a newline scan here (accepted lines go on as runs of the incoming chunk).
 */
export function lineGuard(
  onRejected: (line: RejectedLine) => void,
  maxLineBytes = MAX_LINE_BYTES,
): TransformStream<Uint8Array, Uint8Array> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const decoder = new TextDecoder();

  /** Passes a line (with a newline) or drops it. */
  const emitLine = (line: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>): void => {
    if (acceptable(line)) {
      controller.enqueue(line);
      controller.enqueue(NEWLINE_BYTES);
    } else {
      reject(line);
    }
  };

  const reject = (line: Uint8Array): void => {
    const { start, end } = trimmed(line);
    if (start === end) {
      return; // blank lines are dropped silently
    }
    onRejected({
      // Decode generously, then cut by characters: a byte cut could split a UTF-8 sequence.
      preview: decoder.decode(line.subarray(start, Math.min(end, start + 800))).slice(0, 200),
      bytes: end - start,
    });
  };

  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      // Accepted lines pass as runs of the chunk itself (newlines included): one enqueue per run,
      // not two per line, so a burst of small messages costs the reader a few reads per chunk.
      let from = 0;
      let runStart = 0;
      for (let nl = chunk.indexOf(NEWLINE, from); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
        const piece = chunk.subarray(from, nl);
        if (pendingBytes + piece.length > maxLineBytes) {
          if (from > runStart) {
            controller.enqueue(chunk.subarray(runStart, from));
          }
          throw new OversizedMessageError(maxLineBytes);
        }
        if (pending.length > 0) {
          pending.push(piece);
          emitLine(concat(pending), controller);
          pending = [];
          pendingBytes = 0;
          runStart = nl + 1;
        } else if (!acceptable(piece)) {
          if (from > runStart) {
            controller.enqueue(chunk.subarray(runStart, from));
          }
          reject(piece);
          runStart = nl + 1;
        }
        from = nl + 1;
      }
      if (from > runStart) {
        controller.enqueue(chunk.subarray(runStart, from));
      }
      if (from < chunk.length) {
        pendingBytes += chunk.length - from;
        if (pendingBytes > maxLineBytes) {
          pending = [];
          throw new OversizedMessageError(maxLineBytes);
        }
        pending.push(chunk.slice(from));
      }
    },
    flush(controller) {
      if (pending.length > 0) {
        emitLine(concat(pending), controller);
        pending = [];
        pendingBytes = 0;
      }
    },
  });
}

/** A line that can be a JSON-RPC message: `{` … `}` once surrounding whitespace is ignored. */
function acceptable(line: Uint8Array): boolean {
  const { start, end } = trimmed(line);
  return start < end && line[start] === 0x7b /* { */ && line[end - 1] === 0x7d; /* } */
}

function trimmed(line: Uint8Array): { start: number; end: number } {
  let start = 0;
  let end = line.length;
  while (start < end && isSpace(line[start] as number)) {
    start++;
  }
  while (end > start && isSpace(line[end - 1] as number)) {
    end--;
  }
  return { start, end };
}

const NEWLINE_BYTES = new Uint8Array([NEWLINE]);

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a;
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) {
    return parts[0] as Uint8Array;
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
