/**
 * The chat's composition root, built into its own bundle (`dist/chat.js`): the schemas, the controller
 * and the journal load only when the chat is first needed — the view opens, an editor-tab chat is
 * restored, a command runs, a test asks for the hooks — not when the extension activates (`extension.ts`
 * registers thin stand-ins that call `createChatHost` on first use). The agent connection (the ACP SDK)
 * loads later still, with the first agent start.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import { PermissionRules } from './features/permissions/core/permissionRules';
import { AgentCatalog, demoAgent } from './vscode/agentCatalog';
import { askAgentConsent } from './vscode/agentConsentPrompt';
import { WorkspaceConsent, type WorkspaceDefinition } from './chat/workspaceConsent';
import type { AgentDefinition } from './chat/agentDefinition';
import type * as Connection from './core/connection/agentClient';
import type * as Doctor from './features/doctor/vscode';
import type * as Registry from './features/registry/vscode';
import { ADD_AGENT_COMMANDS } from './features/registry/vscode/addAgentCommandIds';
import { ChangeReview } from './features/checkpoints/chat/changeReview';
import type * as CheckpointsCore from './features/checkpoints/core';
import { ChatController } from './chat/chatController';
import { chatOnScreen, revealChat, type ChatViewRefs } from './vscode/chatOnScreen';
import { ChatPanels } from './vscode/chatPanels';
import { ChatViewProvider } from './vscode/chatViewProvider';
import { registerCommands } from './vscode/commands';
import { VscodeEditReviews } from './features/editReview/vscode/vscodeEditReviews';
import { VsCodeEditorActions } from './vscode/editorActions';
import { ActiveEditorFile } from './features/currentFile/vscode/activeEditorFile';
import { registerEditorTabCommands } from './vscode/editorTabCommands';
import type * as Mentions from './features/mentions/vscode';
import type { MentionSource } from './features/mentions/chat/mentionSource';
import { channelLogger } from './vscode/logChannel';
import type * as Mcp from './features/mcp/vscode';
import { MCP_COMMANDS } from './features/mcp/vscode/mcpCommands';
import { OnFirstUse, registerLazyCommands, requireBundle } from './vscode/lazyBundles';
import { VsCodePermissions } from './features/permissions/vscode/permissionPrompt';
import { ElicitationBroker } from './features/elicitation/core/elicitationBroker';
import type * as Patterns from './features/elicitation/core/agentPattern';
import { ElicitationNotice } from './features/elicitation/vscode/elicitationNotice';
import {
  agentIdleStopMs,
  defaultAgentId,
  fileSettings,
  historyRetention,
  maxMessageChars,
  permissionSettings,
  permissionSurface,
  workspaceRuleStore,
} from './vscode/settings';
import { VsCodeSignIn } from './vscode/signInHost';
import { AgentStatusBar } from './vscode/statusBar';
import { SwappablePrompts, VsCodeUserPrompts } from './vscode/userPrompts';
import { VsCodeDiagnostics } from './features/problems/vscode/vscodeDiagnostics';
import { VsCodeTerminals } from './features/terminals/vscode/vscodeTerminals';
import { WorkspaceFileSystem } from './vscode/workspaceFileSystem';
import { VsCodeWorkspaceChanges } from './features/checkpoints/vscode/vscodeWorkspaceChanges';
import { WorkspaceService } from './features/checkpoints/chat/workspaceService';
import { vscodeWorkspaceHost } from './features/checkpoints/vscode/vscodeWorkspaceHost';

/**
 * The test hooks: what the extension exposes to its integration tests, and only to them (an
 * extension host in `ExtensionMode.Test`); other extensions get nothing (see `exports.ts`).
 */
export interface AcpAgentsApi {
  readonly chat: ChatController;
  /** The dialog seam: tests install scripted answers here instead of skipping dialogs. */
  readonly prompts: SwappablePrompts;
  readonly review: VscodeEditReviews;
  readonly terminals: VsCodeTerminals;
  readonly statusBar: AgentStatusBar;
  readonly rules: PermissionRules;
  /** The agents offered and the settings errors found (`acpAgents.agents`). */
  readonly catalog: AgentCatalog;
  /** The chat in an editor tab ("ACP: Open Chat in Editor"). */
  readonly panels: ChatPanels;
  /** The MCP servers given to sessions (`acpAgents.mcpServers`, secrets from SecretStorage). */
  readonly mcp: Mcp.McpServerSource;
  /** The @-mention picker's workspace entries. */
  readonly mentions: MentionSource;
  /** The sidebar's chat view (whether it is on screen). */
  readonly sidebar: ChatViewProvider;
  /** The ACP Registry and Add Agent's questions (tests install scripted answers in `prompts.current`). */
  readonly registry: Registry.Registry;
  /** Checkpoints: the change review and the workspace service that says where and when they may be taken. */
  readonly checkpoints: {
    readonly review: ChangeReview;
    readonly workspace: WorkspaceService<CheckpointsCore.CheckpointStore>;
  };
}

/**
 * The built chat. The view provider and the panel serializer are registered by `extension.ts` (they
 * must exist from activation on) and delegate here; the commands are registered by `createChatHost`
 * itself, replacing the stand-ins `extension.ts` registered.
 */
export interface ChatHost extends vscode.Disposable {
  readonly view: vscode.WebviewViewProvider;
  readonly panels: vscode.WebviewPanelSerializer;
  readonly api: AcpAgentsApi;
  /** Writes every chat journal and stops the agents (deactivation). */
  shutdown(): Promise<void>;
}

/**
 * Builds the chat: every object, and the registrations of its commands and listeners. `log` is the
 * extension's output channel (made at activation, owned by it). Every lifetime goes to the returned host.
 */
export function createChatHost(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): ChatHost {
  const logger = channelLogger(log);
  const prompts = new SwappablePrompts(new VsCodeUserPrompts());
  const catalog = new AgentCatalog(demoAgent(context.extensionUri, context.globalStorageUri), log);
  const cwd = (): string => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
  const review = new VscodeEditReviews(prompts);
  // The agent connection, the doctor, MCP, the mention index and the registry are bundles of their own,
  // loaded on first use.
  // (Each named by a literal `joinPath`: scripts/package.mjs follows those to the files the .vsix must hold.)
  const dist = context.extensionUri;
  const mcpBundle = () => requireBundle<typeof Mcp>(vscode.Uri.joinPath(dist, 'dist', 'mcp.js').fsPath);
  const mentionsBundle = () =>
    requireBundle<typeof Mentions>(vscode.Uri.joinPath(dist, 'dist', 'mentions.js').fsPath);
  const registryBundle = () =>
    requireBundle<typeof Registry>(vscode.Uri.joinPath(dist, 'dist', 'registry.js').fsPath);
  // The agent connection (the ACP SDK and its zod schemas): with the first agent start.
  const connectionBundle = () =>
    requireBundle<typeof Connection>(vscode.Uri.joinPath(dist, 'dist', 'connection.js').fsPath);
  const doctorBundle = () =>
    requireBundle<typeof Doctor>(vscode.Uri.joinPath(dist, 'dist', 'doctor.js').fsPath);
  // RE2 for the agents' form patterns: with the first form that has one.
  const patternsBundle = () =>
    requireBundle<typeof Patterns>(vscode.Uri.joinPath(dist, 'dist', 'patterns.js').fsPath);
  // The user's consent to the programs the workspace's own files define: its agents and MCP servers.
  const programConsent = new WorkspaceConsent(context.workspaceState);
  const allowProgram = (agent: AgentDefinition, origin: WorkspaceDefinition): Promise<boolean> =>
    programConsent.allowed(origin, () => askAgentConsent(prompts, agent, origin));
  const mcp = new OnFirstUse(() =>
    mcpBundle().createMcpServerSource(context.secrets, programConsent, prompts, logger),
  );
  const terminals = new VsCodeTerminals(cwd);
  const rules = new PermissionRules(permissionSettings, workspaceRuleStore(context.workspaceState));
  // The permission port asks whether the chat view is visible; the view is built after the controller.
  const viewRef: ChatViewRefs = {};
  const permissions = new VsCodePermissions(
    rules,
    prompts,
    {
      chatVisible: ({ sessionId }) => chatOnScreen(viewRef, sessionId),
      revealChat: ({ sessionId }) => revealChat(viewRef, sessionId),
      where: permissionSurface,
      showDiff: (path, oldText, newText) => review.preview(path, oldText, newText),
    },
    logger,
  );
  // The agents' questions (elicitation): answered in the chat; a hidden chat is announced and revealed.
  const elicitations = new ElicitationBroker(logger, (pattern) =>
    patternsBundle().compileAgentPattern(pattern),
  );
  const elicitationNotice = new ElicitationNotice(
    elicitations,
    prompts,
    {
      chatVisible: ({ sessionId }) => sessionId === undefined || chatOnScreen(viewRef, sessionId),
      reveal: async ({ sessionId }) => {
        const chatId = sessionId === undefined ? undefined : viewRef.chat?.chatOfSession(sessionId);
        if (chatId !== undefined && chatId !== viewRef.chat?.windowChatId) {
          await viewRef.chat?.switchChat(chatId);
        }
        await viewRef.current?.reveal();
      },
    },
    logger,
  );
  // Checkpoints: the workspace service says which folders (trusted, live, never the home folder) and where
  // (the extension's storage, never inside a workspace folder, under its cap); the store opens on first use.
  const checkpointsBundle = vscode.Uri.joinPath(context.extensionUri, 'dist', 'checkpoints.js').fsPath;
  const workspaceChanges = new VsCodeWorkspaceChanges(
    (id, file): Promise<Uint8Array | undefined> => changeReview.read(id, file),
    prompts,
  );
  const checkpointWorkspace = new WorkspaceService(
    vscodeWorkspaceHost(context, (message) => workspaceChanges.inform(message)),
    ({ folders, storageDir }) =>
      loadCheckpoints(checkpointsBundle).createCheckpointStore({ folders, storageDir, logger }),
    logger,
    { storeSubdir: 'checkpoints' },
  );
  const changeReview = new ChangeReview(checkpointWorkspace, workspaceChanges, logger);
  const mentionIndex = new OnFirstUse(() => new (mentionsBundle().VsCodeMentionSource)());
  const mentions: MentionSource = {
    query: (query, limit) => mentionIndex.get().query(query, limit),
    problems: (uri) => mentionIndex.get().problems(uri),
  };
  const editor = new VsCodeEditorActions(terminals, new ActiveEditorFile());
  const chat = (viewRef.chat = new ChatController({
    agents: () => catalog.agents,
    defaultAgentId,
    cwd,
    startClient: (options) => connectionBundle().AgentClient.start(options),
    additionalDirectories: () => (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath),
    activeFolder: () => {
      const document = vscode.window.activeTextEditor?.document.uri;
      return document && vscode.workspace.getWorkspaceFolder(document)?.uri.fsPath;
    },
    ports: {
      fileSystem: new WorkspaceFileSystem(fileSettings, prompts, review, logger),
      permissions,
      terminals,
      elicitation: elicitations,
      logger,
    },
    elicitations,
    editor,
    workspaceFolders: () => (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath),
    reviews: review,
    changes: changeReview,
    diagnostics: new VsCodeDiagnostics(),
    mentions,
    signIn: new VsCodeSignIn(context.secrets, prompts),
    trusted: () => vscode.workspace.isTrusted,
    allowProgram,
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
        mcpServers: () => mcp.get().servers(),
        threadLimits: { maxMessageChars: maxMessageChars() },
      };
    },
  }));
  const view = (viewRef.current = new ChatViewProvider(context.extensionUri, chat, log));
  const panels = (viewRef.panels = new ChatPanels(context.extensionUri, chat, log));
  const statusBar = new AgentStatusBar(chat);
  const registry = new OnFirstUse(() =>
    registryBundle().createRegistry(context.extensionUri, context.globalStorageUri, log),
  );

  const subscriptions: vscode.Disposable[] = [
    catalog,
    review,
    terminals,
    workspaceChanges,
    checkpointWorkspace,
    changeReview,
    mentionIndex,
    editor,
    chat,
    elicitationNotice,
    elicitations,
    view,
    statusBar,
    panels,
  ];
  try {
    subscriptions.push(
      catalog.onDidChange(() => chat.agentsChanged()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void chat.restart()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => chat.workspaceFoldersChanged()),
    );
    subscriptions.push(...registerEditorTabCommands(chat, view, panels));
    subscriptions.push(...registerCommands({ chat, view, prompts, log }));
    subscriptions.push(...registerLazyCommands(MCP_COMMANDS, () => mcpBundle().mcpCommands(mcp.get(), log)));
    subscriptions.push(
      ...registerLazyCommands(ADD_AGENT_COMMANDS, () =>
        registryBundle().addAgentCommands({
          registry: registry.get().service,
          prompts: registry.get().prompts,
          catalog,
          chat,
          reveal: () => view.reveal(),
          log,
        }),
      ),
    );
    subscriptions.push(
      ...registerLazyCommands(['acpAgents.checkAgents'], () => ({
        'acpAgents.checkAgents': () =>
          doctorBundle().checkAgents({
            catalog,
            log,
            cwd,
            storage: context.globalStorageUri,
            extensionVersion: String(context.extension.packageJSON.version),
            parseJsonc: (text) => mcpBundle().parseJsonc(text),
            knownAgents: () => registry.get().knownAgents(),
            allowProgram,
          }),
      })),
    );
  } catch (error) {
    // A half-built chat leaves nothing registered: the next use builds it again from scratch.
    for (const subscription of subscriptions.splice(0).reverse()) {
      subscription.dispose();
    }
    throw error;
  }
  return {
    view,
    panels,
    api: {
      chat,
      prompts,
      review,
      terminals,
      statusBar,
      rules,
      catalog,
      get mcp() {
        return mcp.get();
      },
      panels,
      mentions,
      sidebar: view,
      get registry() {
        return registry.get();
      },
      checkpoints: { review: changeReview, workspace: checkpointWorkspace },
    },
    shutdown: () => chat.shutdown(),
    dispose: () => {
      for (const subscription of subscriptions.splice(0).reverse()) {
        subscription.dispose();
      }
    },
  };
}

/**
 * The checkpoint store (`dist/checkpoints.js`, built from src/features/checkpoints/core), loaded
 * with the first checkpoint rather than with the chat: a bundle of its own, required by path.
 */
function loadCheckpoints(path: string): typeof CheckpointsCore {
  return requireBundle<typeof CheckpointsCore>(path);
}
