import type { Thread } from '../../../core/thread/thread';
import type { FileChangeStat } from '../core/types';
import { describe, plural, restoreVerb } from './cardUpdates';
import type { PutBackPlan } from './putBack';
import type { RunningTurnsRegistry } from './checkpointWorkspace';
import { confirmDespiteRunning } from './confirmRunning';
import type { WorkspaceChangesPort } from './workspaceChanges';

/**
 * Asks before "restore to before this message" carries out `plan` on `files`: what will change (as the
 * plan will do it), what is left alone and why (earlier bytes not known, a folder now a link), and which
 * open editors lose unsaved text — and first, when another chat's turn runs on these folders, whether to go
 * ahead anyway. Resolves whether to go ahead.
 */
export async function confirmRestore(
  workspace: WorkspaceChangesPort,
  running: RunningTurnsRegistry,
  thread: Thread,
  files: readonly FileChangeStat[],
  plan: PutBackPlan,
): Promise<boolean> {
  const leftAlone = new Map(plan.leftAlone.map((file) => [file.path, file.reason]));
  const touched = plan.known.map((file) => file.path);
  if (!(await confirmDespiteRunning(workspace, running, thread, touched, 'Restore'))) {
    return false;
  }
  // Unsaved editor text of a file put back is lost: said first, as Undo asks before losing edits.
  const unsaved = new Set(touched.filter((path) => workspace.unsaved(path)));
  const lost =
    unsaved.size === 0
      ? ''
      : ` Unsaved changes in ${unsaved.size} open ${plural(unsaved.size, 'editor')} will be lost.`;
  const alone =
    leftAlone.size === 0
      ? ''
      : ` ${leftAlone.size} will be left as ${leftAlone.size === 1 ? 'it is' : 'they are'}.`;
  // Files that change come first: they are what the user is asked about.
  const ordered = [...files].sort((a, b) => Number(leftAlone.has(a.path)) - Number(leftAlone.has(b.path)));
  return workspace.confirm(
    `Restore the workspace to before this message? ${touched.length} ${plural(touched.length, 'file')} will change.${alone}${lost}`,
    describe(ordered, (file) => {
      const why = leftAlone.get(file.path);
      const what = why === undefined ? restoreVerb(file.kind) : `left alone: ${why}`;
      const dropped = unsaved.has(file.path) ? ', unsaved changes lost' : '';
      return `${workspace.relativePath(file.path)} (${what}${dropped})`;
    }),
    'Restore',
  );
}
