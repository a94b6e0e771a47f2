import { abortable } from '../util/abortable';
import type { Logger } from '../ports';

/** The answer to a `session/prompt` whose turn Stop ended: it may still come, late. */
type PromptAnswer = Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }>;

export interface StoppedTurnGateOptions {
  readonly agentName: string;
  readonly logger: Logger;
  /** How long the agent has to answer a cancelled turn before we stop waiting for it. */
  readonly graceMs: number;
  /** Lets the updates already read from the pipe land (the agent's last ones follow its answer). */
  readonly drainUpdates: () => Promise<void>;
}

/**
 * A turn Stop ended here may still be running on the agent. Agents expect one prompt at a time, so the
 * next prompt waits for that turn's answer (at most the grace); until it comes, the agent's transcript
 * updates are the stopped turn's and are dropped, never glued onto the new answer.
 */
export class StoppedTurnGate {
  /** Settles when the agent has answered (or the grace passed for) the last turn ended by Stop. */
  private previous: Promise<void> | undefined;
  /** Set while a new turn waits for `previous`: what the agent sends meanwhile is the stopped turn's. */
  private waiting = false;
  /** Transcript updates dropped while `waiting` (said once in the log). */
  private dropped = 0;

  constructor(private readonly options: StoppedTurnGateOptions) {}

  /** Whether a transcript update arriving now belongs to the stopped turn (it is then counted, dropped). */
  drops(): boolean {
    if (this.waiting) {
      this.dropped++;
    }
    return this.waiting;
  }

  /** The user pressed Stop while `answer` was awaited: the next turn waits for it. */
  stopped(answer: PromptAnswer): void {
    const settled = this.awaitCancelledAnswer(answer);
    this.previous = settled;
    void settled.then(() => {
      if (this.previous === settled) {
        this.previous = undefined;
      }
    });
  }

  /**
   * Waits (for a new turn) until the agent answered the turn Stop ended. Until then its updates are the
   * stopped turn's: this turn's prompt is not sent yet, so none can be its own. `'stopped'` when the new
   * turn was stopped too while it waited.
   */
  async beforeNextTurn(stop: Promise<'stopped'>): Promise<void | 'stopped'> {
    if (this.previous === undefined) {
      return;
    }
    this.waiting = true;
    this.dropped = 0;
    try {
      return await Promise.race([this.previous, stop]);
    } finally {
      this.waiting = false;
      if (this.dropped > 0) {
        this.options.logger.info(
          `${this.options.agentName} sent ${this.dropped} update(s) for the stopped turn after the next message; they are not shown.`,
        );
      }
    }
  }

  /** After a local Stop: logs when (or whether) the agent ended the cancelled turn itself. */
  private async awaitCancelledAnswer(answer: PromptAnswer): Promise<void> {
    const { agentName, logger, graceMs } = this.options;
    const outcome = await abortable(answer, AbortSignal.timeout(graceMs)).catch(() => 'late' as const);
    if (outcome === 'late') {
      logger.warn(`${agentName} did not end the cancelled turn in ${graceMs} ms; it was ended here at Stop.`);
      return;
    }
    // Its last updates can reach us just after its answer: they still count as the stopped turn's.
    await this.options.drainUpdates();
  }
}
