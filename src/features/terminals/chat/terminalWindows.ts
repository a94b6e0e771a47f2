import type { Disposable } from '../../../core/util/disposable';
import type { TerminalExit, TerminalOutput } from '../../../core/ports';

/** A window onto one agent terminal (a VS Code terminal in the product). */
export interface TerminalWindow {
  /** Shows terminal text (CRLF line ends). */
  write(text: string): void;
  /** Brings it on screen and focuses it. */
  reveal(): void;
  /** Closes it; `onUserClose` is not called (the command runs on). */
  close(): void;
}

/** Opens a window named `name`; `onUserClose` runs when the person closes it (the command is then stopped). */
export type OpenTerminalWindow<W extends TerminalWindow> = (name: string, onUserClose: () => void) => W;

/** What the windows read from the terminals that run the commands. */
export interface TerminalSource {
  readonly onDidWrite: (listener: (write: { terminalId: string; data: Buffer }) => void) => Disposable;
  lastOutput(terminalId: string): TerminalOutput | undefined;
  waitForExit(terminalId: string): Promise<TerminalExit>;
  kill(terminalId: string): Promise<void>;
}

export interface TerminalWindowLimits {
  /** Running terminals given a window as they start; the others open on demand (`show`). */
  readonly openAtOnce: number;
  /** Windows of running terminals open at once: opening one more closes the oldest (its command runs on). */
  readonly maxOpen: number;
  /** Windows of released terminals kept for reading before the oldest is closed. */
  readonly kept: number;
}

export const DEFAULT_WINDOW_LIMITS: TerminalWindowLimits = { openAtOnce: 4, maxOpen: 12, kept: 5 };

interface Known<W> {
  readonly sessionId: string;
  readonly commandLine: string;
  window?: W;
  decoder?: TextDecoder;
}

/**
 * Which agent terminals have a window: the first few as they start (a storm of terminals must not open
 * a VS Code terminal each), any other on demand — the tool card's "Open in terminal", for the session
 * that owns it only — within `maxOpen`; a released terminal's window stays readable (the last `kept`).
 */
export class TerminalWindows<W extends TerminalWindow> implements Disposable {
  /** Terminals the agents hold (running or not yet released), oldest first. */
  private readonly running = new Map<string, Known<W>>();
  /** Released terminals whose window is kept, oldest first. */
  private readonly finished = new Map<string, Known<W>>();
  private readonly subscription: Disposable;

  constructor(
    private readonly source: TerminalSource,
    private readonly open: OpenTerminalWindow<W>,
    private readonly limits: TerminalWindowLimits = DEFAULT_WINDOW_LIMITS,
  ) {
    this.subscription = source.onDidWrite(({ terminalId, data }) => {
      const known = this.running.get(terminalId);
      if (known?.window) {
        known.decoder ??= new TextDecoder();
        known.window.write(crlf(known.decoder.decode(data, { stream: true })));
      }
    });
  }

  /** A terminal started for `sessionId`: it gets a window if fewer than `openAtOnce` are open. */
  created(terminalId: string, sessionId: string, commandLine: string): void {
    this.running.set(terminalId, { sessionId, commandLine });
    if (this.openCount() < this.limits.openAtOnce) {
      this.openWindow(terminalId);
    }
  }

  /** The agent released it: its window (if any) stays readable among the last `kept`. */
  released(terminalId: string): void {
    const known = this.running.get(terminalId);
    this.running.delete(terminalId);
    if (!known?.window) {
      return;
    }
    this.finished.set(terminalId, known);
    for (const [id, old] of this.finished) {
      if (this.finished.size <= this.limits.kept) {
        break;
      }
      this.finished.delete(id);
      old.window?.close();
    }
  }

  /** The window of a terminal, opened now if it is running and had none. */
  windowFor(terminalId: string): W | undefined {
    const known = this.finished.get(terminalId) ?? this.running.get(terminalId);
    if (!known) {
      return undefined;
    }
    return known.window ?? this.openWindow(terminalId);
  }

  /**
   * Shows terminal `terminalId` of session `sessionId` on screen (opening its window if need be); false
   * when that session has no such terminal, or it was released without a window kept.
   */
  show(terminalId: string, sessionId: string): boolean {
    const known = this.finished.get(terminalId) ?? this.running.get(terminalId);
    if (known?.sessionId !== sessionId) {
      return false;
    }
    const window = this.windowFor(terminalId);
    window?.reveal();
    return window !== undefined;
  }

  /** How many windows are open (running terminals' and kept ones'). */
  get openWindows(): number {
    return this.openCount() + this.finished.size;
  }

  private openCount(): number {
    return [...this.running.values()].filter((known) => known.window).length;
  }

  private openWindow(terminalId: string): W | undefined {
    const known = this.running.get(terminalId);
    if (!known) {
      return undefined;
    }
    // Within the bound: the oldest open window goes (its command runs on; it can be opened again).
    for (const [id, other] of this.running) {
      if (this.openCount() < this.limits.maxOpen) {
        break;
      }
      if (other.window && id !== terminalId) {
        other.window.close();
        delete other.window;
        delete other.decoder;
      }
    }
    const window = this.open(`Agent: ${truncate(known.commandLine, 40)}`, () => {
      void this.source.kill(terminalId).catch(() => {});
    });
    known.window = window;
    window.write(`\x1b[2m$ ${known.commandLine}\x1b[0m\r\n`);
    // Opened late: what was printed so far (bounded by the terminal's limit) comes first.
    const held = this.source.lastOutput(terminalId)?.output;
    if (held) {
      window.write(crlf(held));
    }
    void this.source.waitForExit(terminalId).then(
      (exit) => {
        if (known.window === window) {
          const status = exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.exitCode}`;
          window.write(`\r\n\x1b[2m[${status}]\x1b[0m\r\n`);
        }
      },
      () => {},
    );
    return window;
  }

  dispose(): void {
    this.subscription.dispose();
    for (const known of [...this.running.values(), ...this.finished.values()]) {
      known.window?.close();
    }
    this.running.clear();
    this.finished.clear();
  }
}

/** A terminal wants CRLF; commands print LF. */
function crlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
