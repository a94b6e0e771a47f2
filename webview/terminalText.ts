import type { TerminalOutputMessage } from '../src/protocol';

/**
 * A terminal's output as the page holds it: appended in pieces, read from any offset without copying what
 * is before it. (A string grown by `+` is flattened — copied whole — when it is next read: comparing or
 * slicing 1 MB of output that way cost ≈ 2–5 ms an update.)
 */
export class TerminalText {
  private readonly pieces: string[] = [];
  /** Where each piece ends in the whole text. */
  private readonly ends: number[] = [];

  get length(): number {
    return this.ends[this.ends.length - 1] ?? 0;
  }

  append(text: string): void {
    if (text !== '') {
      this.ends.push(this.length + text.length);
      this.pieces.push(text);
    }
  }

  /** The text from `from` to `to`: the cost of that part and a search, not of the text before it. */
  slice(from: number, to: number): string {
    let first = 0;
    for (let last = this.ends.length; first < last;) {
      const middle = (first + last) >> 1;
      if ((this.ends[middle] as number) <= from) {
        first = middle + 1;
      } else {
        last = middle;
      }
    }
    const parts: string[] = [];
    for (let i = first; i < this.pieces.length; i++) {
      const start = i === 0 ? 0 : (this.ends[i - 1] as number);
      if (start >= to) {
        break;
      }
      parts.push((this.pieces[i] as string).slice(Math.max(0, from - start), to - start));
    }
    return parts.join('');
  }
}

/**
 * A terminal's state as the page shows it: its output is the first `length` characters of `text`, which later
 * states of the same output append to (a state the host sent whole starts a new `text`).
 */
export type TerminalState = Omit<TerminalOutputMessage, 'output' | 'append'> & {
  readonly text: TerminalText;
  readonly length: number;
};

/** The state after `message`, given the terminal's state before it. */
export function nextTerminalState(
  previous: TerminalState | undefined,
  message: TerminalOutputMessage,
): TerminalState {
  const { append, output, ...rest } = message;
  // A delta continues the output held; without a base (sent before this view existed) it is all we have.
  const text = append && previous ? previous.text : new TerminalText();
  text.append(output);
  return { ...rest, text, length: text.length };
}
