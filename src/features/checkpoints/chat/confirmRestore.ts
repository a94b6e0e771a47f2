import type { Thread } from '../../../core/thread/thread';
import type { FileChangeStat } from '../core/types';
import { describe, plural, restoreVerb } from './cardUpdates';
import { wouldLeaveAlone } from './putBack';
import type { RunningTurnsRegistry } from './checkpointWorkspace';
import { confirmDespiteRunning } from './confirmRunning';
import type { WorkspaceChangesPort } from './workspaceChanges';

/**
 * Asks before "restore to before this message" puts `files` back: what will change, what is left alone
 * (a folder now a link) and which open editors lose unsaved text — and first, when another chat's turn
 * runs on these folders, whether to go ahead anyway. Resolves whether to go ahead.
 */
export async function confirmRestore(
  workspace: WorkspaceChangesPort,
  running: RunningTurnsRegistry,
  thread: Thread,
  files: readonly FileChangeStat[],
): Promise<boolean> {
  const leftAlone = await wouldLeaveAlone(
    workspace,
    files.map((file) => file.path),
  );
  const changing = files.length - leftAlone.size;
  const touched = files.filter((file) => !leftAlone.has(file.path)).map((file) => file.path);
  if (!(await confirmDespiteRunning(workspace, running, thread, touched, 'Restore'))) {
    return false;
  }
  // Unsaved editor text of a file put back is lost: said first, as Undo asks before losing edits.
  const unsaved = new Set(
    files.filter((f) => !leftAlone.has(f.path) && workspace.unsaved(f.path)).map((f) => f.path),
  );
  const lost =
    unsaved.size === 0
      ? ''
      : ` Unsaved changes in ${unsaved.size} open ${plural(unsaved.size, 'editor')} will be lost.`;
  const confirmed = await workspace.confirm(
    `Restore the workspace to before this message? ${changing} ${plural(changing, 'file')} will change.${lost}`,
    describe(files, (file) => {
      const why = leftAlone.get(file.path);
      const what = why === undefined ? restoreVerb(file.kind) : `left alone: ${why}`;
      const dropped = unsaved.has(file.path) ? ', unsaved changes lost' : '';
      return `${workspace.relativePath(file.path)} (${what}${dropped})`;
    }),
    'Restore',
  );
  return confirmed;
}
