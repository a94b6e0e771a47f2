import type { Disposable } from '../../../core/util/disposable';
import type { TerminalOutput, TerminalPort } from '../../../core/ports';
import type { TerminalOutputMessage } from '../../../protocol';
import { FLUSH_INTERVAL_MS } from '../../../chat/eventBatcher';

/** Terminals whose output is kept for a reconnecting view. */
const KEPT_OUTPUTS = 20;
/**
 * Characters the view may hold for one terminal before it is sent the held output afresh: the
 * view appends deltas, and the host drops old output past the command's byte limit.
 */
const VIEW_CHARS = 2 * 1024 * 1024;

interface Sent {
  /** The offset to read the next delta from. */
  next: number;
  /** What the view holds, for a view that connects later. */
  message: TerminalOutputMessage;
}

/**
 * Forwards terminal output to the view, coalesced: however often a command prints, each terminal
 * is read and sent at most once per flush interval — and only what is new since the last send
 * (a delta the view appends), so the cost follows the output, not how much is already shown.
 */
export class TerminalRelay implements Disposable {
  private readonly changed = new Set<string>();
  private readonly sent = new Map<string, Sent>();
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
        const message = this.terminals.outputFrom
          ? this.delta(terminalId, this.terminals.outputFrom.bind(this.terminals))
          : this.whole(
              terminalId,
              this.terminals.lastOutput?.(terminalId) ?? (await this.terminals.output(terminalId)),
            );
        if (message) {
          this.send(message);
        }
      } catch {
        // Released and no longer known: nothing more to show.
      }
    }
  }

  private delta(
    terminalId: string,
    outputFrom: NonNullable<TerminalPort['outputFrom']>,
  ): TerminalOutputMessage | undefined {
    const previous = this.sent.get(terminalId);
    let delta = outputFrom(terminalId, previous?.next ?? -1);
    if (delta?.append && previous && previous.message.output.length + delta.text.length > VIEW_CHARS) {
      delta = outputFrom(terminalId, -1);
    }
    if (!delta) {
      return undefined;
    }
    const base = {
      terminalId,
      truncated: delta.truncated,
      ...(delta.exitStatus ? { exitStatus: delta.exitStatus } : {}),
    };
    if (delta.append && previous) {
      if (
        delta.text === '' &&
        sameExit(previous.message, delta.exitStatus) &&
        previous.message.truncated === delta.truncated
      ) {
        return undefined;
      }
      this.remember(terminalId, {
        next: delta.next,
        message: { ...base, output: previous.message.output + delta.text },
      });
      return { ...base, output: delta.text, append: true };
    }
    const message = { ...base, output: delta.text };
    this.remember(terminalId, { next: delta.next, message });
    return message;
  }

  /** For a port without deltas: the whole output every time. */
  private whole(terminalId: string, output: TerminalOutput): TerminalOutputMessage {
    const message = {
      terminalId,
      output: output.output,
      truncated: output.truncated,
      ...(output.exitStatus ? { exitStatus: output.exitStatus } : {}),
    };
    this.remember(terminalId, { next: -1, message });
    return message;
  }

  private remember(terminalId: string, sent: Sent): void {
    this.sent.delete(terminalId);
    this.sent.set(terminalId, sent);
    while (this.sent.size > KEPT_OUTPUTS) {
      this.sent.delete(this.sent.keys().next().value as string);
    }
  }

  /** Sends the whole output of every recent terminal again (after a snapshot). */
  resend(): void {
    for (const { message } of this.sent.values()) {
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

function sameExit(message: TerminalOutputMessage, exit: TerminalOutputMessage['exitStatus']): boolean {
  return message.exitStatus?.exitCode === exit?.exitCode && message.exitStatus?.signal === exit?.signal;
}
