import type { AgentProcess, ExitInfo } from './agentProcess';
import { abortable, isTimeout } from '../util/abortable';
import type { ConnectionLostError } from './connectionLoss';
import { AgentExitedError, classifyError, type AgentError } from './errors';

/** How many of the agent's last stderr lines an exit carries (shown in the chat, scrubbed). */
const STDERR_LINES = 20;

/** The process's exit, or undefined when it has not come within `ms`. */
export function exitWithin(process: AgentProcess, ms: number): Promise<ExitInfo | undefined> {
  return abortable<ExitInfo | undefined>(process.exited, AbortSignal.timeout(ms)).catch((error: unknown) => {
    if (isTimeout(error)) {
      return undefined;
    }
    throw error;
  });
}

/**
 * Why an agent is gone, and what a failed request says: once the process has exited or the connection
 * was lost, that is the reason — whatever the SDK said about the request that failed with it. Stdout
 * closes a moment before the exit is reported, so some answers wait briefly for the exit.
 */
export class AgentEndReasons {
  /** Why the connection closed while the process still ran (an oversized or malformed message). */
  private loss: ConnectionLostError | undefined;

  constructor(
    private readonly process: AgentProcess,
    /** Aborted when the connection has closed. */
    private readonly connectionClosed: AbortSignal,
  ) {}

  /** The connection was lost while the process still ran: from now on that is the reason. */
  lost(loss: ConnectionLostError): void {
    this.loss = loss;
  }

  get connectionLoss(): ConnectionLostError | undefined {
    return this.loss;
  }

  /** What the process's exit says (the lost connection first, if it came before). */
  exitError(exit: ExitInfo): AgentError {
    return this.loss ?? new AgentExitedError(exit, this.process.stderr.lastLines(STDERR_LINES));
  }

  /** Classifies a failed request; once the process is gone that is the reason, whatever the SDK said. */
  failure(error: unknown): AgentError {
    const exit = this.process.exitInfo;
    const classified = classifyError(error);
    if (this.loss && classified.code === undefined) {
      return this.loss;
    }
    if (exit && classified.code === undefined && !(classified instanceof AgentExitedError)) {
      return this.exitError(exit);
    }
    return classified;
  }

  /**
   * Like `failure`, but first waits briefly for the exit: when the agent dies, its stdout closes
   * (failing the request) a moment before the exit is reported.
   */
  async settledFailure(error: unknown): Promise<AgentError> {
    const classified = classifyError(error);
    if (classified.kind === 'timeout') {
      return classified;
    }
    if (classified.code === undefined && !(classified instanceof AgentExitedError)) {
      return (await this.exitReport()) ?? classified;
    }
    return classified;
  }

  /**
   * The exit (or the lost connection) as an error. Waits briefly only when the connection is
   * already closed — stdout closes a moment before the exit is reported — never for a live one.
   */
  async exitReport(): Promise<AgentError | undefined> {
    if (this.loss) {
      return this.loss;
    }
    if (!this.process.exitInfo && !this.connectionClosed.aborted) {
      return undefined;
    }
    const exit = this.process.exitInfo ?? (await exitWithin(this.process, 2000));
    return this.loss ?? (exit ? this.exitError(exit) : undefined);
  }

  /** Why the agent is gone (the lost connection, else the exit); undefined while it runs. */
  get endReason(): AgentError | undefined {
    const exit = this.process.exitInfo;
    return this.loss ?? (exit ? this.exitError(exit) : undefined);
  }
}
