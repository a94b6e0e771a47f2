import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { ChatContributionFactory } from '../../../chat/chatContribution';
import { findOnAbsolutePath } from '../../../core/connection/spawnProgram';
import type { Logger } from '../../../core/ports';
import type { UserPrompts } from '../../../vscode/userPrompts';
import { readCommitFiles } from '../core/blobs';
import { originPlace } from '../core/worktreeChanges';
import { WorktreeLocks } from '../core/worktreeLocks';
import { AgentGroups, type GroupAgent } from '../chat/agentGroups';
import type { ComparisonDiagnostics } from '../chat/groupComparison';
import { findLeftovers, offerCleanup } from '../chat/leftoverWorktrees';
import { WorktreeActions } from '../chat/worktreeActions';
import { WorktreeChats, type WorktreeChatsHost } from '../chat/worktreeChats';
import { RepositoryOffers } from '../chat/worktreeOffers';
import { worktreesContribution, WorktreeStarter } from '../chat/worktreesContribution';
import { ComparisonTree } from './comparisonView';
import { registerGroupCommands } from './groupCommands';
import { VsCodeWorktreeUi } from './vscodeWorktreeUi';

/** The command that starts a new chat in a worktree of its own. */
export const NEW_CHAT_IN_WORKTREE = 'acpAgents.newChatInWorktree';

const IncludeSchema = z.catch(z.array(z.string().check(z.maxLength(500))).check(z.maxLength(100)), []);
const FolderSchema = z.catch(z.optional(z.string().check(z.maxLength(4_096))), undefined);

export interface WorktreesFeatureDeps {
  readonly context: Pick<vscode.ExtensionContext, 'storageUri' | 'globalStorageUri'>;
  readonly prompts: UserPrompts;
  readonly logger: Logger;
  /** Opens a new, empty chat as the window's chat and shows it. */
  readonly newChat: () => Promise<void>;
  /** Shows chat `chatId` (its tab, or the sidebar switched to it). */
  readonly openChat: (chatId: string) => Promise<void>;
  /** The agents configured now (for "Ask several agents…"). */
  readonly agents: () => readonly GroupAgent[];
  /** VS Code's Problems, counted for a group's changed files. */
  readonly diagnostics?: ComparisonDiagnostics;
}

export interface WorktreesFeature extends vscode.Disposable {
  readonly contribution: ChatContributionFactory;
  readonly worktrees: WorktreeChats;
  /** The groups of "Ask several agents…" and their comparison. */
  readonly groups: AgentGroups;
  /** The folders of the chats' worktrees (live ones): checkpointed like workspace folders. */
  folders(): string[];
}

/**
 * Chats in git worktrees of their own, in VS Code: the records in the workspace's storage, one lock per
 * worktree in the global storage (shared by every window), the "New Chat in Worktree" command, the
 * settings `acpAgents.worktrees.folder` and `.include`, and the leftover worktrees offered for cleanup
 * once the chats are back.
 */
export function worktreesFeature(deps: WorktreesFeatureDeps): WorktreesFeature {
  const { context, logger } = deps;
  const storage = (context.storageUri ?? context.globalStorageUri).fsPath;
  const locks = new WorktreeLocks(path.join(context.globalStorageUri.fsPath, 'worktree-locks'));
  const host: WorktreeChatsHost = {
    trusted: () => vscode.workspace.isTrusted,
    workspaceFolders: () => (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath),
    storageDir: path.join(storage, 'worktrees'),
    workDir: path.join(context.globalStorageUri.fsPath, 'worktrees-work'),
    git: () => findOnAbsolutePath('git', process.env),
    locks,
    settings: () => {
      const config = vscode.workspace.getConfiguration('acpAgents.worktrees');
      const folder = FolderSchema.parse(config.get('folder'));
      return { include: IncludeSchema.parse(config.get('include') ?? []), ...(folder ? { folder } : {}) };
    },
    logger,
  };
  const worktrees = new WorktreeChats(host);
  const ui = new VsCodeWorktreeUi(deps.prompts, async (record, rels) =>
    readCommitFiles(await worktrees.git(), originPlace(record), record.baseCommit, rels),
  );
  const actions = new WorktreeActions(worktrees, ui, logger);
  const offers = new RepositoryOffers(worktrees, host.trusted);
  const starter = new WorktreeStarter();
  const groups = new AgentGroups({
    worktrees,
    actions,
    ui,
    logger,
    storageDir: host.storageDir,
    trusted: host.trusted,
    agents: deps.agents,
    ...(deps.diagnostics ? { diagnostics: deps.diagnostics } : {}),
    // Called only once a group started, long after the tree below is made.
    reveal: () => void comparison.reveal(),
  });
  const comparison = new ComparisonTree(groups);
  const subscriptions: vscode.Disposable[] = [
    vscode.workspace.onDidGrantWorkspaceTrust(() => offers.forget()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => offers.forget()),
    vscode.commands.registerCommand(NEW_CHAT_IN_WORKTREE, () => newChatInWorktree(deps, starter, ui)),
    ...registerGroupCommands({ groups, worktrees, ui, logger, openChat: deps.openChat }),
    comparison,
  ];
  void cleanupLater(worktrees, actions, ui, starter, host, logger);
  return {
    contribution: worktreesContribution(worktrees, actions, offers, starter, groups),
    worktrees,
    groups,
    folders: () =>
      worktrees
        .allRecords()
        .filter((record) => !record.discarded && starter.chatExists(record.chatId))
        .map((record) => record.folder),
    dispose: () => {
      subscriptions.forEach((subscription) => subscription.dispose());
      groups.dispose();
      ui.dispose();
      worktrees.dispose();
      locks.dispose();
    },
  };
}

async function newChatInWorktree(deps: WorktreesFeatureDeps, starter: WorktreeStarter, ui: VsCodeWorktreeUi): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    void ui.inform('No worktree in Restricted Mode: trust the workspace first.');
    return;
  }
  try {
    await deps.newChat();
    await starter.startWindowChat();
  } catch (error) {
    deps.logger.error(`New chat in a worktree: ${String(error)}`);
    void ui.inform(error instanceof Error ? error.message : String(error));
  }
}

/** Once the chats are back: worktrees no chat owns any more are offered for cleanup. */
async function cleanupLater(
  worktrees: WorktreeChats,
  actions: WorktreeActions,
  ui: VsCodeWorktreeUi,
  starter: WorktreeStarter,
  host: WorktreeChatsHost,
  logger: Logger,
): Promise<void> {
  if (!host.trusted()) {
    return;
  }
  try {
    await starter.ready;
    const leftovers = await findLeftovers(worktrees, host, (chatId) => starter.chatExists(chatId));
    await offerCleanup(leftovers, { worktrees, actions, ui, logger });
  } catch (error) {
    logger.warn(`Could not look for leftover worktrees: ${String(error)}`);
  }
}
