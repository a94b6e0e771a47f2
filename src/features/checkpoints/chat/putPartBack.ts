import type { Thread } from '../../../core/thread/thread';
import type { TurnFileChange } from '../../../core/thread/threadTypes';
import { decide, markProblems, recount, sameBytes } from './cardUpdates';
import type { RunningTurnsRegistry } from './checkpointWorkspace';
import { confirmDespiteRunning } from './confirmRunning';
import { planPutBack, putBack, reportNotRestored } from './putBack';
import type { WorkspaceChangesPort } from './workspaceChanges';
import type { WritesInFlight } from './writesInFlight';

/** Part of a file's change put back (one hunk undone): the bytes to write, and what they were made from. */
export interface PartialUndo {
  /** The file now with the part undone (every other byte as it is now). */
  readonly bytes: Uint8Array;
  /** The file's content the part was cut from: if it is not what it is now, nothing is written. */
  readonly from: Uint8Array;
  /** The card's counts once written: lines added and removed against the checkpoint. */
  readonly counts: { readonly added: number; readonly removed: number };
}

/** What putting part of a file back needs (the change review's own parts). */
export interface PutPartBackDeps {
  readonly workspace: WorkspaceChangesPort;
  readonly running: RunningTurnsRegistry;
  readonly folders: () => Promise<readonly string[]>;
  /** `path`'s bytes at the checkpoint before the turn. */
  readonly readBefore: (path: string) => Promise<Uint8Array | undefined>;
  /** Where the write is known while it runs (a checkpoint waits for it). */
  readonly writes: WritesInFlight;
}

/**
 * Undoes part of one file's change (a hunk) under the rules of a file's Undo, through the same writer:
 * another chat's running turn on the folder named and asked about first; a file whose earlier bytes are not
 * known, outside the workspace folders or reached through a link left alone (`planPutBack` / `putBack`);
 * unsaved text in its editor asked about (the bytes written hold it, so it is saved). Resolves whether the
 * bytes were written.
 */
export async function putPartBack(
  deps: PutPartBackDeps,
  thread: Thread,
  turnId: string,
  file: TurnFileChange,
  part: PartialUndo,
): Promise<boolean> {
  const { workspace } = deps;
  if (thread.runningTurn !== undefined) {
    throw new Error('A turn of this chat is running: wait for it to end (or stop it) to undo.');
  }
  if (!(await confirmDespiteRunning(workspace, deps.running, thread, [file.path], 'Undo'))) {
    return false;
  }
  const plan = await planPutBack(workspace, deps.readBefore, [file], await deps.folders());
  if (plan.known.length === 0) {
    reportNotRestored(workspace, 'Undid', { restored: [], notRestored: plan.leftAlone });
    markProblems(thread, turnId, plan.leftAlone);
    return false;
  }
  if (!sameBytes(await workspace.current(file.path), part.from)) {
    throw new Error(`${workspace.relativePath(file.path)} changed meanwhile: its changes are shown again.`);
  }
  if (workspace.unsaved(file.path) && !(await confirmSaving(workspace, file))) {
    return false;
  }
  const outcome = await putBack(deps, [{ path: file.path, bytes: part.bytes }]);
  reportNotRestored(workspace, 'Undid', outcome);
  markProblems(thread, turnId, outcome.notRestored);
  if (outcome.restored.length === 0) {
    return false;
  }
  recount(thread, turnId, file.path, part.counts);
  if (part.counts.added === 0 && part.counts.removed === 0 && file.kind === 'modified') {
    decide(thread, turnId, [file], 'undone');
  }
  return true;
}

function confirmSaving(workspace: WorkspaceChangesPort, file: TurnFileChange): Promise<boolean> {
  return workspace.confirm(
    `${file.relativePath} has unsaved changes. Undo this change and save the file with them?`,
    'The rest of the file, your unsaved edits included, is written as it is in the editor.',
    'Undo and save',
  );
}
