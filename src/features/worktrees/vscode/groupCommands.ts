import * as vscode from 'vscode';
import type { Logger } from '../../../core/ports';
import type { AgentGroups } from '../chat/agentGroups';
import type { WorktreeChats } from '../chat/worktreeChats';
import type { WorktreeUi } from '../chat/worktreeUi';

/** "Ask Several Agents…": one prompt to N agents, each in a worktree chat of its own. */
export const ASK_SEVERAL_AGENTS = 'acpAgents.askSeveralAgents';

export interface GroupCommandDeps {
  readonly groups: AgentGroups;
  readonly worktrees: WorktreeChats;
  readonly ui: WorktreeUi;
  readonly logger: Logger;
  readonly openChat: (chatId: string) => Promise<void>;
}

/** What a comparison command is called with: a chat id (the row's own click), or the row (its inline button). */
type RunTarget = string | { readonly chatId?: string } | undefined;

function chatIdOf(target: RunTarget): string | undefined {
  return typeof target === 'string' ? target : target?.chatId;
}

/** The command and the comparison's row and file commands. */
export function registerGroupCommands(deps: GroupCommandDeps): vscode.Disposable[] {
  const { groups, worktrees, ui } = deps;
  const guarded =
    (what: string, work: (chatId: string, ...rest: unknown[]) => Promise<unknown>) =>
    async (target: RunTarget, ...rest: unknown[]): Promise<void> => {
      const chatId = chatIdOf(target);
      if (chatId === undefined) {
        return;
      }
      await work(chatId, ...rest).catch((error: unknown) => report(deps, what, error));
    };
  return [
    vscode.commands.registerCommand(ASK_SEVERAL_AGENTS, async () => {
      if (!vscode.workspace.isTrusted) {
        void ui.inform('No worktree in Restricted Mode: trust the workspace first.');
        return;
      }
      await groups.ask().catch((error: unknown) => report(deps, 'Ask several agents', error));
    }),
    vscode.commands.registerCommand('acpAgents.compare.openChat', guarded('Open the chat', deps.openChat)),
    vscode.commands.registerCommand('acpAgents.compare.applyOne', guarded('Apply', (chatId) => groups.applyOne(chatId))),
    vscode.commands.registerCommand(
      'acpAgents.compare.discardRest',
      guarded('Discard the rest', (chatId) => groups.discardRest(chatId)),
    ),
    vscode.commands.registerCommand(
      'acpAgents.compare.openDiff',
      guarded('Open the diff', async (chatId, rel) => {
        const record = worktrees.record(chatId);
        const file = worktrees.changes(chatId)?.files.find((changed) => changed.rel === rel);
        if (record && file) {
          await ui.showChanges(record, [file]);
        }
      }),
    ),
  ];
}

function report(deps: GroupCommandDeps, what: string, error: unknown): void {
  deps.logger.error(`${what}: ${String(error)}`);
  void deps.ui.inform(error instanceof Error ? error.message : String(error));
}
