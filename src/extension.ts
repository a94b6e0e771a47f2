import * as os from 'node:os';
import * as vscode from 'vscode';
import { PermissionRules } from './core/permissionRules';
import { AgentCatalog, demoAgent } from './vscode/agentCatalog';
import { ChatController } from './chat/chatController';
import { ChatViewProvider } from './vscode/chatViewProvider';
import { registerCommands } from './vscode/commands';
import { EditReview } from './vscode/editReview';
import { VsCodeEditorActions } from './vscode/editorActions';
import { VsCodeMentionSource } from './vscode/mentionSource';
import { channelLogger } from './vscode/logChannel';
import { diffViewer, VsCodePermissions } from './vscode/permissionPrompt';
import {
  agentIdleStopMs,
  defaultAgentId,
  fileSettings,
  historyRetention,
  permissionSettings,
  permissionSurface,
  workspaceRuleStore,
} from './vscode/settings';
import { VsCodeSignIn } from './vscode/signInHost';
import { AgentStatusBar } from './vscode/statusBar';
import { SwappablePrompts, VsCodeUserPrompts } from './vscode/userPrompts';
import { VsCodeTerminals } from './vscode/vscodeTerminals';
import { WorkspaceFileSystem } from './vscode/workspaceFileSystem';

/** What the extension exposes to its integration tests (and to other extensions). */
export interface AcpAgentsApi {
  readonly chat: ChatController;
  /** The dialog seam: tests install scripted answers here instead of skipping dialogs. */
  readonly prompts: SwappablePrompts;
  readonly review: EditReview;
  readonly terminals: VsCodeTerminals;
  readonly statusBar: AgentStatusBar;
  readonly rules: PermissionRules;
  /** The agents offered and the settings errors found (`acpAgents.agents`). */
  readonly catalog: AgentCatalog;
  /** The @-mention picker's workspace entries. */
  readonly mentions: VsCodeMentionSource;
}

/** Composition root: build the objects, register them, hand every lifetime to VS Code. */
export function activate(context: vscode.ExtensionContext): AcpAgentsApi {
  const log = vscode.window.createOutputChannel('ACP Agents', { log: true });
  const logger = channelLogger(log);
  const prompts = new SwappablePrompts(new VsCodeUserPrompts());
  const catalog = new AgentCatalog(demoAgent(context.extensionUri, context.globalStorageUri), log);
  const cwd = (): string => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
  const review = new EditReview(prompts);
  const terminals = new VsCodeTerminals(cwd);
  const rules = new PermissionRules(permissionSettings, workspaceRuleStore(context.workspaceState));
  // The permission port asks whether the chat view is visible; the view is built after the controller.
  const viewRef: { current?: ChatViewProvider } = {};
  const permissions = new VsCodePermissions(
    rules,
    prompts,
    {
      chatVisible: () => viewRef.current?.isVisible ?? false,
      where: permissionSurface,
      showDiff: diffViewer(review),
    },
    logger,
  );
  const mentions = new VsCodeMentionSource();
  const chat = new ChatController({
    agents: () => catalog.agents,
    defaultAgentId,
    cwd,
    ports: {
      fileSystem: new WorkspaceFileSystem(fileSettings, prompts, review, logger),
      permissions,
      terminals,
      logger,
    },
    editor: new VsCodeEditorActions(),
    reviews: review,
    mentions,
    signIn: new VsCodeSignIn(context.secrets, prompts),
    trusted: () => vscode.workspace.isTrusted,
    storageDir: (context.storageUri ?? context.globalStorageUri).fsPath,
    retention: historyRetention,
    idleStopMs: agentIdleStopMs,
    progress: (title, work) =>
      Promise.resolve(
        vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, () => work),
      ),
    // Read at each agent start: set the log level to Trace, restart the agent, and every protocol message is logged.
    get clientOptions() {
      return {
        clientInfo: {
          name: 'acp-agents-vscode',
          title: 'ACP Agents for VS Code',
          version: String(context.extension.packageJSON.version),
        },
        traceProtocol: log.logLevel === vscode.LogLevel.Trace,
      };
    },
  });
  const view = (viewRef.current = new ChatViewProvider(context.extensionUri, chat, log));
  const statusBar = new AgentStatusBar(chat);

  context.subscriptions.push(
    log,
    catalog,
    review,
    terminals,
    mentions,
    chat,
    view,
    statusBar,
    catalog.onDidChange(() => chat.agentsChanged()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void chat.restart()),
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, view),
    ...registerCommands({ chat, view, prompts, log }),
  );
  shutdown = () => chat.shutdown();
  return { chat, prompts, review, terminals, statusBar, rules, catalog, mentions };
}

/** Set by activate: writes every chat journal and stops the agents before the host goes. */
let shutdown: (() => Promise<void>) | undefined;

export async function deactivate(): Promise<void> {
  await shutdown?.();
}
