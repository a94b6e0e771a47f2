// eslint-disable-next-line no-control-regex -- ANSI escape sequences start with ESC
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

// eslint-disable-next-line no-control-regex -- an escape sequence cut off at the end of the output so far
export const PARTIAL_ESCAPE = /\u001b(\[[0-9;?]*[ -/]*|\][^\u0007\u001b]*)?$/;

/** Terminal text without colour codes; a line rewritten with \r shows its last state. */
export function cleanTerminalText(output: string): string {
  return output
    .replace(ANSI, '')
    .split('\n')
    .map((line) => {
      const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
      return trimmed.slice(trimmed.lastIndexOf('\r') + 1);
    })
    .join('\n');
}

/** What one pushed part of an output shows: the lines it completed, and the line still being written. */
export interface CleanedPart {
  /** Complete lines (each ending with its newline), cleaned. */
  readonly lines: string;
  /**
   * The line still being written as it shows now (a \r may rewrite it, an escape may be half received) — or,
   * when `extends`, what shows after what it showed before.
   */
  readonly current: string;
  /** The part only added to the end of the line being written: a long line costs an update its new part. */
  readonly extends: boolean;
}

/**
 * Cleans a terminal's output as it arrives: each complete line once, and of the line still being written what
 * each part changes. That line is held raw from its last state on (a progress bar redrawn with \r thousands of
 * times without a newline is one line), and a part that only adds to it is cleaned alone (a minified file printed
 * as one line): cleaning the whole line on every part cost each update everything written on it so far.
 */
export class TerminalCleaner {
  /** The raw line still being written, from the point its shown state depends on. */
  private tail = '';
  /** `tail` has no \r and nothing of it may still change: a part without \r or \n only adds to it. */
  private extendable = true;

  /** How many raw characters it holds of the line being written. */
  get heldChars(): number {
    return this.tail.length;
  }

  /** Cleans `raw`, which continues the output pushed before. */
  push(raw: string): CleanedPart {
    if (this.extendable && !/[\r\n]/.test(raw)) {
      this.tail += raw;
      return { lines: '', current: this.shown(raw), extends: true };
    }
    const text = this.tail + raw;
    const lineEnd = text.lastIndexOf('\n') + 1;
    this.tail = lastState(text.slice(lineEnd));
    const current = this.shown(this.tail);
    this.extendable &&= !this.tail.includes('\r');
    return { lines: cleanTerminalText(text.slice(0, lineEnd)), current, extends: false };
  }

  /**
   * `raw`, the end of the line being written, cleaned as shown there. An escape sequence still being received is
   * not shown as text meanwhile, nor is text that reads as the start of one once cleaned: a later part may show
   * it, so the next part cannot only add to the line.
   */
  private shown(raw: string): string {
    const cleaned = cleanTerminalText(raw);
    const shown = cleaned.replace(PARTIAL_ESCAPE, '');
    this.extendable = shown.length === cleaned.length && !PARTIAL_ESCAPE.test(raw);
    return shown;
  }
}

/**
 * The end of a line being written that cleans to the same as the whole line, also once more is appended: from
 * after its last \r after which something shows (a \r followed only by escapes shows the state before it). Not
 * while an escape sequence may still run on: one being received at the end (a later part may hide what now
 * shows), or an OSC (a window title, which may hold a \r) open across that \r — the line is then kept whole.
 */
function lastState(line: string): string {
  if (PARTIAL_ESCAPE.test(line)) {
    return line;
  }
  for (let cr = line.lastIndexOf('\r'); cr >= 0; cr = cr > 0 ? line.lastIndexOf('\r', cr - 1) : -1) {
    const after = line.slice(cr + 1);
    if (after.replace(ANSI, '') !== '') {
      return inOsc(line, cr) ? line : after;
    }
  }
  return line;
}

/** True when an OSC sequence opened before `at` is still open there: its end may come after it. */
function inOsc(line: string, at: number): boolean {
  const escape = line.lastIndexOf('\u001b', at);
  if (escape < 0 || line[escape + 1] !== ']') {
    return false;
  }
  const bell = line.indexOf('\u0007', escape);
  return bell === -1 || bell > at;
}
