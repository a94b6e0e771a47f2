import { safeAgentText } from '../thread/agentText';

/** A line as shown while the chat waits: enough to read the reason, not a stack dump. */
const MAX_SHOWN_CHARS = 300;
/** A line still being written is held this long at most (a minified bundle's line must not grow memory). */
const MAX_HELD_CHARS = 8192;

/**
 * Cuts an agent's stderr into lines as they complete, each made safe to show (plain, secrets scrubbed,
 * bounded), for the chat to say the agent's own words while it waits on it.
 */
export class StderrLines {
  private partial = '';

  constructor(private readonly onLine: (line: string) => void) {}

  push(text: string): void {
    const lines = (this.partial + text).split(/\r?\n/);
    this.partial = (lines.pop() ?? '').slice(-MAX_HELD_CHARS);
    for (const line of lines) {
      const shown = safeAgentText(line.trim(), MAX_SHOWN_CHARS);
      if (shown !== '') {
        this.onLine(shown);
      }
    }
  }
}

/**
 * Whether a stderr line says the agent cannot go on: an error, a refusal, something missing or denied.
 * Stderr has no structure, so its words are all there is; an agent's progress chatter does not match.
 */
export function looksFatal(line: string): boolean {
  return FATAL_WORDS.test(line) && !NOT_WHY_IT_STOPS.test(line);
}

/**
 * An agent saying it does not know a method, or could not handle a notification (an older ACP SDK prints
 * both when we cancel a request it cannot cancel): it goes on, and a request's own error is its answer.
 */
const NOT_WHY_IT_STOPS = /method not found|error handling notification/i;

const FATAL_WORDS =
  /\b(fatal|error|panic|exception|cannot|can't|could not|couldn't|unable to|failed|denied|not permitted|not allowed|refus\w*|forbidden|unauthori[sz]ed|not supported|not found|no such|missing|invalid|EACCES|EPERM|ENOENT)\b/i;
