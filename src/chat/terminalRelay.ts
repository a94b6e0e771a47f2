import type { Disposable } from '../core/disposable';
import type { TerminalPort } from '../core/ports';
import type { TerminalOutputMessage } from '../protocol';
import { FLUSH_INTERVAL_MS } from './eventBatcher';

/** Terminals whose output is kept for a reconnecting view. */
const KEPT_OUTPUTS = 20;

/**
 * Forwards terminal output to the view, coalesced: however often a command prints, each terminal's
 * current output is read and sent at most once per flush interval.
 */
export class TerminalRelay implements Disposable {
  private readonly changed = new Set<string>();
  /** The latest output of recent terminals, for a view that connects after it was sent. */
  private readonly latest = new Map<string, TerminalOutputMessage>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subscription: Disposable | undefined;

  constructor(
    private readonly terminals: TerminalPort,
    private readonly send: (terminal: TerminalOutputMessage) => void,
  ) {
    this.subscription = terminals.onDidChange?.((terminalId) => {
      this.changed.add(terminalId);
      this.timer ??= setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS);
    });
  }

  private async flush(): Promise<void> {
    this.timer = undefined;
    const ids = [...this.changed];
    this.changed.clear();
    for (const terminalId of ids) {
      try {
        const { output, truncated, exitStatus } =
          this.terminals.lastOutput?.(terminalId) ?? (await this.terminals.output(terminalId));
        const message = { terminalId, output, truncated, ...(exitStatus ? { exitStatus } : {}) };
        this.latest.delete(terminalId);
        this.latest.set(terminalId, message);
        while (this.latest.size > KEPT_OUTPUTS) {
          this.latest.delete(this.latest.keys().next().value as string);
        }
        this.send(message);
      } catch {
        // Released and no longer known: nothing more to show.
      }
    }
  }

  /** Sends the latest output of every recent terminal again (after a snapshot). */
  resend(): void {
    for (const message of this.latest.values()) {
      this.send(message);
    }
  }

  dispose(): void {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.subscription?.dispose();
  }
}
