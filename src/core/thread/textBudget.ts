import type { Truncation } from './threadTypes';

/** Default limits: large enough for any real answer, small enough that a runaway agent cannot exhaust memory. */
export const DEFAULT_MAX_MESSAGE_CHARS = 1_000_000;
export const DEFAULT_MAX_TOOL_OUTPUT_CHARS = 200_000;

export function truncationMarker(limit: number): string {
  return `\n\n… [truncated: output over ${limit.toLocaleString('en-US')} characters not shown]`;
}

/** The result of adding text to bounded text. `appended` is what to show after the old text. */
export interface BoundedAppend {
  readonly text: string;
  readonly appended: string;
  readonly truncated?: Truncation;
}

/**
 * Appends `addition` to `current` without letting it grow past `limit`. The first time the limit
 * is crossed, a visible marker is appended; after that, text is only counted.
 */
export function appendBounded(
  current: string,
  addition: string,
  limit: number,
  truncated: Truncation | undefined,
): BoundedAppend {
  if (truncated) {
    return {
      text: current,
      appended: '',
      truncated: { limit, omittedChars: truncated.omittedChars + addition.length },
    };
  }
  if (current.length + addition.length <= limit) {
    return { text: current + addition, appended: addition };
  }
  let room = Math.max(0, limit - current.length);
  // Never cut between the two halves of a surrogate pair (an emoji, say).
  if (room > 0 && isHighSurrogate(addition.charCodeAt(room - 1))) {
    room--;
  }
  const appended = addition.slice(0, room) + truncationMarker(limit);
  return { text: current + appended, appended, truncated: { limit, omittedChars: addition.length - room } };
}

/** Bounds one piece of text on its own (a tool's output, a diff side). */
export function boundText(text: string, limit: number): { text: string; truncated?: Truncation } {
  const result = appendBounded('', text, limit, undefined);
  return result.truncated ? { text: result.text, truncated: result.truncated } : { text: result.text };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** How much of a message's end is kept past its limit: a quarter of the limit, beside the limit's head. */
export function tailCharsFor(limit: number): number {
  return Math.ceil(limit / 4);
}

/** What stands between a cut message's head and its tail once the message is finished. */
export function middleMarker(notShown: number, limit: number): string {
  return (
    `\n\n… [${notShown.toLocaleString('en-US')} characters not shown here: the message is over ` +
    `${limit.toLocaleString('en-US')} characters; its end follows]\n\n`
  );
}

/**
 * The last `size` characters of text arriving in pieces, for the end of a message past its limit.
 * Pieces are kept as they come and joined only when over twice the size, so a long stream costs
 * linear time and at most ≈ 2 × size characters of memory.
 */
export class TailKeeper {
  private parts: string[] = [];
  private length = 0;

  constructor(private readonly size: number) {}

  push(text: string): void {
    if (text.length === 0) {
      return;
    }
    this.parts.push(text);
    this.length += text.length;
    if (this.length > 2 * this.size) {
      const kept = this.text();
      this.parts = [kept];
      this.length = kept.length;
    }
  }

  /** The kept end, never starting with the second half of a surrogate pair. */
  text(): string {
    let tail = this.parts.join('').slice(-this.size);
    if (tail.length > 0 && isLowSurrogate(tail.charCodeAt(0))) {
      tail = tail.slice(1);
    }
    return tail;
  }
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
