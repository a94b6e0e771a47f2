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
