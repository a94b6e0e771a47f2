import { describe, plural } from './cardUpdates';
import type { RunningTurnsRegistry } from './checkpointWorkspace';
import type { WorkspaceChangesPort } from './workspaceChanges';

/**
 * Asks before Undo / Undo all / Restore puts back `paths` while another chat's turn runs on their
 * folders (its agent may be writing them this very moment), naming that chat and listing the files.
 * Resolves whether to go ahead: true at once when no other chat runs there.
 */
export async function confirmDespiteRunning(
  port: Pick<WorkspaceChangesPort, 'confirm' | 'folderOf' | 'relativePath'>,
  turns: Pick<RunningTurnsRegistry, 'othersOn'>,
  chat: object,
  paths: readonly string[],
  action: 'Undo' | 'Restore',
): Promise<boolean> {
  const folders = paths.map((p) => port.folderOf(p)).filter((f): f is string => f !== undefined);
  const others = await turns.othersOn(chat, folders);
  if (others.length === 0 || paths.length === 0) {
    return true;
  }
  const names = others.map((turn) => `“${turn.title()}”`).join(', ');
  const verb = action === 'Undo' ? 'undoing' : 'restoring';
  return port.confirm(
    `${plural(others.length, 'Chat')} ${names} ${others.length === 1 ? 'is' : 'are'} running on this folder: its agent may be changing files while you are ${verb}. ${action} ${paths.length} ${plural(paths.length, 'file')} anyway?`,
    describe(paths, (p) => port.relativePath(p)),
    `${action} anyway`,
  );
}
