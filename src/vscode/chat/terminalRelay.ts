import type { Disposable } from '../../core/disposable';
import type { TerminalPort } from '../../core/ports';
import type { TerminalOutputMessage } from '../../protocol';
import { FLUSH_INTERVAL_MS } from './eventBatcher';

/**
 * Forwards terminal output to the view, coalesced: however often a command prints, each terminal's
 * current output is read and sent at most once per flush interval.
 */
export class TerminalRelay implements Disposable {
  private readonly changed = new Set<string>();
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
        const { output, truncated, exitStatus } = await this.terminals.output(terminalId);
        this.send({ terminalId, output, truncated, ...(exitStatus ? { exitStatus } : {}) });
      } catch {
        // Released in the meantime: nothing more to show.
      }
    }
  }

  dispose(): void {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.subscription?.dispose();
  }
}
