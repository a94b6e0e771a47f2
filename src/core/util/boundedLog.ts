import { safeAgentText } from '../thread/agentText';

/** One stderr line as reported: a minified bundle's line must not fill the error. */
const MAX_LINE_CHARS = 2000;

/**
 * Keeps the most recent output of a stream (an agent's stderr) within a byte budget, so a chatty
 * agent cannot grow memory without bound while the tail stays available for error reports.
 */
export class BoundedLog {
  private chunks: string[] = [];
  private size = 0;
  private dropped = 0;

  constructor(readonly maxChars = 64 * 1024) {}

  append(text: string): void {
    if (text.length === 0) {
      return;
    }
    this.chunks.push(text);
    this.size += text.length;
    while (this.size > this.maxChars && this.chunks.length > 0) {
      const excess = this.size - this.maxChars;
      const first = this.chunks[0] as string;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
        this.dropped += first.length;
      } else {
        this.chunks[0] = first.slice(excess);
        this.size -= excess;
        this.dropped += excess;
      }
    }
  }

  /** Everything kept, oldest first. */
  text(): string {
    if (this.chunks.length > 1) {
      this.chunks = [this.chunks.join('')];
    }
    return this.chunks[0] ?? '';
  }

  /** The last `count` complete or partial lines, for an error message. */
  lastLines(count: number): string[] {
    if (count <= 0) {
      return [];
    }
    const lines = this.text().split(/\r?\n/);
    if (lines.at(-1) === '') {
      lines.pop();
    }
    // For a person or the log: plain, bounded, secrets scrubbed (the kept text itself stays as written).
    return lines.slice(-count).map((line) => safeAgentText(line, MAX_LINE_CHARS));
  }

  /** How many characters were discarded from the front to stay within budget. */
  get droppedChars(): number {
    return this.dropped;
  }
}
