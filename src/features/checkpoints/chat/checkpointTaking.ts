import { abortable, isTimeout } from '../../../core/util/abortable';
import { deadlineSignal } from '../../../core/util/clock';
import type { Logger } from '../../../core/ports';
import type { CheckpointStore } from '../core/types';
import type { WorkspaceChangesPort } from './workspaceChanges';
import type { WritesInFlight } from './writesInFlight';

/** A checkpoint before a prompt: its id, or why there is none (and, when it is only slow, its promise). */
export type TakenCheckpoint =
  { readonly id: string } | { readonly problem: string; readonly late?: Promise<string> };

export interface CheckpointTakingDeps {
  /**
   * The store of this moment when a new checkpoint may be taken in it, else rejects with why not
   * (`CheckpointWorkspace.checkpointStore`, through the change review, which notes its folders).
   */
  readonly checkpointStore: (stopped?: AbortSignal) => Promise<CheckpointStore>;
  readonly workspace: WorkspaceChangesPort;
  readonly logger: Logger;
  /** Undo's and Restore's writes: a checkpoint is taken once those in flight are done. */
  readonly writes: WritesInFlight;
  /** A checkpoint that takes longer is given up: the prompt is not held back for it. */
  readonly timeoutMs: number;
}

/**
 * When checkpoints are taken: before each prompt (never holding it back longer than the limit), once in
 * the background when the chat opens (the warm-up), and ahead of Send while the user writes a message.
 */
export class CheckpointTaking {
  private told = false;
  private warming: Promise<void> | undefined;
  /** A checkpoint being taken ahead of a Send (see `speculate`). */
  private speculating: Promise<void> | undefined;

  constructor(private readonly deps: CheckpointTakingDeps) {}

  /**
   * Takes a first checkpoint in the background (the chat opened): on a large workspace the first one
   * stores every file once, which must not hold back the first prompt. `again`: trust was granted or the
   * folders changed, so a warm-up that found nothing to do (or a smaller store) runs again.
   */
  warmUp(again = false): void {
    if (again && this.warming === undefined) {
      return;
    }
    if (again) {
      this.warming = undefined;
    }
    this.warming ??= this.take().then(() => undefined);
  }

  /**
   * The user is writing a message: the checkpoint its Send needs is taken now, off the send path (the
   * store answers Send with it only while it proves nothing changed since). One at a time; on any
   * failure Send takes its checkpoint as it always does.
   */
  speculate(): void {
    if (this.speculating !== undefined) {
      return;
    }
    this.speculating = (async () => {
      await this.deps.writes.settled();
      await (await this.deps.checkpointStore()).speculate?.();
    })()
      .catch((error: unknown) => this.deps.logger.trace(`No checkpoint ahead: ${String(error)}`))
      .finally(() => (this.speculating = undefined));
  }

  /** Resolves once the warm-up and a checkpoint ahead of Send, when one is being taken, are done. */
  async idle(): Promise<void> {
    await Promise.allSettled([this.warming, this.speculating]);
  }

  /**
   * Records the workspace before a prompt: its id, or why there is none (logged, shown on the turn; the
   * prompt goes on). A checkpoint that takes longer than the limit (the first of a large folder on a busy
   * machine) is not given up: it goes on in the background, and `late` resolves with it.
   */
  async take(
    /** Stop pressed while the checkpoint is taken: it is given up at once. */
    stopped?: AbortSignal,
  ): Promise<TakenCheckpoint> {
    const { timeoutMs, logger } = this.deps;
    // One limit for all of it: what the prompt waits for is the sum.
    const deadline = deadlineSignal(timeoutMs, stopped);
    const within = <T>(work: Promise<T>): Promise<T> => abortable(work, deadline.signal);
    let writing = true;
    let creating: Promise<string> | undefined;
    try {
      // An Undo still writing (the message sent at once), measuring a large storage against its cap, or
      // opening the store on a slow disk takes a moment: Stop and the limit apply to them too.
      await within(this.deps.writes.settled());
      writing = false;
      const store = await within(this.deps.checkpointStore(deadline.signal));
      this.tellLimited(store);
      creating = store.create();
      creating.catch(() => undefined); // awaited below, or by the turn that follows it
      return { id: await within(creating) };
    } catch (error) {
      const seconds = Math.round(timeoutMs / 1000);
      if (creating !== undefined && isTimeout(error) && stopped?.aborted !== true) {
        const problem = `The checkpoint before this turn was still being taken after ${seconds} s: the turn's changes are listed once it is done.`;
        logger.warn(problem);
        return { problem, late: creating };
      }
      const timedOut = writing
        ? `an Undo or Restore was still writing files after ${seconds} s`
        : `it took longer than ${timeoutMs} ms`;
      const reason = isTimeout(error) ? timedOut : error instanceof Error ? error.message : String(error);
      const problem = `No checkpoint for this turn: ${reason}`;
      logger.warn(problem);
      return { problem };
    } finally {
      deadline.dispose();
    }
  }

  /** A store that cannot see every change says so, once. */
  private tellLimited(store: CheckpointStore): void {
    if (store.coverage === 'limited' && !this.told) {
      this.told = true;
      this.deps.workspace.inform(
        `Agent changes are only partly tracked: ${store.limitation ?? 'git is not available'}`,
      );
    }
  }
}
