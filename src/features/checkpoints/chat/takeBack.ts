import type { CheckpointStore, FileChangeStat } from '../core/types';
import type { Thread } from '../../../core/thread/thread';
import type { TurnChanges, TurnFileChange } from '../../../core/thread/threadTypes';
import { decide, markProblems, pendingOf, undoDespiteEdits } from './cardUpdates';
import type { RunningTurnsRegistry } from './checkpointWorkspace';
import { confirmRestore } from './confirmRestore';
import { confirmDespiteRunning } from './confirmRunning';
import {
  editedSince,
  planPutBack,
  putBack,
  reportNotRestored,
  type PutBackOutcome,
  type PutBackPlan,
} from './putBack';
import type { WorkspaceChangesPort } from './workspaceChanges';
import type { WritesInFlight } from './writesInFlight';
import { readLinkTarget } from '../core/linkTargets';

/** What taking changes back needs of the change review. */
export interface TakeBackDeps {
  readonly workspace: WorkspaceChangesPort;
  readonly running: RunningTurnsRegistry;
  /** The workspace's store of this moment. */
  readonly store: () => Promise<CheckpointStore>;
  /** `path`'s bytes at checkpoint `id` (rejects for a path no longer checkpointed). */
  readonly read: (id: string, path: string) => Promise<Uint8Array | undefined>;
  /** Where the writes are known while they run (a checkpoint waits for them). */
  readonly writes: WritesInFlight;
}

/**
 * Undo (one file, or all of a turn) and "restore to before this message": each decides once what it will
 * do (`planPutBack`), asks what must be asked (another chat's turn running on the folders, edits made after
 * the turn, the Restore dialog showing that plan), then does it and marks the cards.
 */
export class TakeBack {
  constructor(private readonly deps: TakeBackDeps) {}

  /** Undoes `files` of turn `turnId` (whose card is `changes`): back to checkpoint `checkpointId`. */
  async undo(
    thread: Thread,
    turnId: string,
    checkpointId: string,
    changes: TurnChanges,
    files: readonly TurnFileChange[],
  ): Promise<void> {
    const { workspace, running } = this.deps;
    if (files.length === 0) {
      return;
    }
    const paths = files.map((file) => file.path);
    if (!(await confirmDespiteRunning(workspace, running, thread, paths, 'Undo'))) {
      return;
    }
    const afterId = changes.afterCheckpointId;
    const plan = await this.plan(checkpointId, files);
    // Only what will be written is asked about: a file left alone (its bytes before are not known, its
    // folder is now a link) loses nothing — and its "content now" could be read through a link.
    const written = files.filter((file) => plan.known.some((known) => known.path === file.path));
    // A link the turn left is compared as a link (its target), never by reading through it: what it
    // names may be outside the workspace, and was never in the checkpoint.
    const links = written.filter((file) => file.link !== undefined);
    const edited = [
      ...(afterId
        ? await editedSince(
            workspace,
            (p) => this.deps.read(afterId, p),
            written.filter((file) => file.link === undefined),
          )
        : []),
      ...(await linksChangedSince(links)),
    ];
    if (!(await undoDespiteEdits(workspace, edited))) {
      return;
    }
    const outcome = await this.putBack(plan, 'Undid');
    const restored = new Set(outcome.restored);
    decide(
      thread,
      turnId,
      files.filter((file) => restored.has(file.path)),
      'undone',
    );
    markProblems(thread, turnId, outcome.notRestored);
  }

  /**
   * Puts the workspace back to how it was before turn `turnId`, after the user confirms what changes;
   * resolves false when the user declined (nothing was changed).
   */
  async restore(thread: Thread, turnId: string): Promise<boolean> {
    if (thread.runningTurn) {
      throw new Error('Stop the running turn before restoring a checkpoint.');
    }
    const checkpointId = thread.turn(turnId)?.checkpointId;
    if (checkpointId === undefined) {
      throw new Error('There is no checkpoint from before this message.');
    }
    const files = await (await this.deps.store()).changes(checkpointId);
    if (files.length === 0) {
      this.deps.workspace.inform('The workspace is already as it was before this message.');
      return true;
    }
    const plan = await this.plan(checkpointId, files);
    if (!(await confirmRestore(this.deps.workspace, this.deps.running, thread, files, plan))) {
      return false;
    }
    const outcome = await this.putBack(plan, 'Restored');
    thread.updateTurn(turnId, { restoredAt: Date.now() });
    // What later turns changed is gone from the disk now — except what was left alone: their cards say so.
    const restored = new Set(outcome.restored);
    let after = false;
    for (const turn of thread.snapshot().turns) {
      after ||= turn.id === turnId;
      if (after && turn.changes) {
        const pending = pendingOf(turn.changes.files);
        decide(
          thread,
          turn.id,
          pending.filter((file) => restored.has(file.path)),
          'undone',
        );
        markProblems(thread, turn.id, outcome.notRestored);
      }
    }
    return true;
  }

  /** What putting `files` back as they were at `checkpointId` will do (see `planPutBack`). */
  private async plan(
    checkpointId: string,
    files: readonly Pick<FileChangeStat, 'path' | 'kind' | 'beforeUnknown' | 'unsure' | 'unrecorded'>[],
  ): Promise<PutBackPlan> {
    // A file of a folder removed from the workspace since is left as it is: nothing is known of it now.
    const folders = (await this.deps.store()).folders;
    return planPutBack(this.deps.workspace, (path) => this.deps.read(checkpointId, path), files, folders);
  }

  /** Carries out `plan` (each write target checked again just before) and says what was left alone. */
  private async putBack(plan: PutBackPlan, verb: string): Promise<PutBackOutcome> {
    const outcome = await putBack(this.deps, plan.known, plan.leftAlone);
    reportNotRestored(this.deps.workspace, verb, outcome);
    return outcome;
  }
}

/** The links the turn left (`link`) that name something else now, or are no longer links. */
async function linksChangedSince(files: readonly TurnFileChange[]): Promise<TurnFileChange[]> {
  const now = await Promise.all(files.map((file) => readLinkTarget(file.path)));
  return files.filter((file, index) => now[index] !== file.link?.target);
}
