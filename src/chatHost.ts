/**
 * The chat's composition root, built into its own bundle (`dist/chat.js`): the ACP SDK, the zod schemas,
 * the controller, checkpoints and the journal load only when the chat is first needed — the view opens,
 * an editor-tab chat is restored, a command runs, a test asks for the hooks — not when the extension
 * activates (`extension.ts` registers thin stand-ins that call `createChatHost` on first use).
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import { PermissionRules } from './features/permissions/core/permissionRules';
import { AgentCatalog, demoAgent } from './vscode/agentCatalog';
import { registerCheckAgents } from './features/doctor/vscode/checkAgents';
import {
  defaultAddAgentPrompts,
  registerAddAgentCommands,
} from './features/registry/vscode/addAgentCommands';
import type { AddAgentPrompts } from './features/registry/vscode/addAgentPicker';
import { RegistryService } from './features/registry/vscode/registryService';
import { knownAgentsOf } from './features/registry/chat/agentChoices';
import { platformKey } from './features/registry/core/registryFormat';
import { ChangeReview } from './features/checkpoints/chat/changeReview';
import type * as CheckpointsCore from './features/checkpoints/core';
import { ChatController } from './chat/chatController';
import { chatOnScreen, revealChat, type ChatViewRefs } from './vscode/chatOnScreen';
import { ChatPanels } from './vscode/chatPanels';
import { ChatViewProvider } from './vscode/chatViewProvider';
import { registerCommands } from './vscode/commands';
import { VscodeEditReviews } from './features/editReview/vscode/vscodeEditReviews';
import { VsCodeEditorActions } from './vscode/editorActions';
import { registerEditorTabCommands } from './vscode/editorTabCommands';
import { VsCodeMentionSource } from './features/mentions/vscode/vscodeMentionSource';
import { channelLogger } from './vscode/logChannel';
import { registerMcpCommands } from './features/mcp/vscode/mcpCommands';
import { McpServerSource } from './features/mcp/vscode/mcpServerSource';
import { askMcpConsent } from './features/mcp/vscode/mcpConsentPrompt';
import { McpConsent } from './features/mcp/chat/mcpConsent';
import { parseJsonc } from './features/mcp/chat/vscodeMcpConfig';
import { VsCodePermissions } from './features/permissions/vscode/permissionPrompt';
import { ElicitationBroker } from './features/elicitation/core/elicitationBroker';
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
  readonly mcp: McpServerSource;
  /** The @-mention picker's workspace entries. */
  readonly mentions: VsCodeMentionSource;
  /** The sidebar's chat view (whether it is on screen). */
  readonly sidebar: ChatViewProvider;
  /** The ACP Registry and Add Agent's questions (tests install scripted answers in `prompts.current`). */
  readonly registry: { readonly service: RegistryService; readonly prompts: { current: AddAgentPrompts } };
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
  const mcp = new McpServerSource(
    context.secrets,
    prompts,
    logger,
    new McpConsent(context.workspaceState, (server) => askMcpConsent(prompts, server)),
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
  const elicitations = new ElicitationBroker(logger);
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
  const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
  // Checkpoints live in the extension's own storage, never in the user's repository.
  const checkpointsDir = (context.storageUri ?? context.globalStorageUri).fsPath;
  const checkpointsBundle = vscode.Uri.joinPath(context.extensionUri, 'dist', 'checkpoints.js').fsPath;
  const workspaceChanges = new VsCodeWorkspaceChanges(
    (id, file): Promise<Uint8Array | undefined> => changeReview?.read(id, file) ?? Promise.resolve(undefined),
    prompts,
  );
  const changeReview: ChangeReview | undefined = folders.length
    ? new ChangeReview(
        () =>
          loadCheckpoints(checkpointsBundle).createCheckpointStore({
            folders,
            storageDir: checkpointsDir,
            logger,
          }),
        workspaceChanges,
        logger,
      )
    : undefined;
  const mentions = new VsCodeMentionSource();
  const editor = new VsCodeEditorActions();
  const chat = (viewRef.chat = new ChatController({
    agents: () => catalog.agents,
    defaultAgentId,
    cwd,
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
    ...(changeReview ? { changes: changeReview } : {}),
    diagnostics: new VsCodeDiagnostics(),
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
        mcpServers: () => mcp.servers(),
        threadLimits: { maxMessageChars: maxMessageChars() },
      };
    },
  }));
  const view = (viewRef.current = new ChatViewProvider(context.extensionUri, chat, log));
  const panels = (viewRef.panels = new ChatPanels(context.extensionUri, chat, log));
  const statusBar = new AgentStatusBar(chat);
  const registry = {
    service: new RegistryService(context.extensionUri, context.globalStorageUri, log),
    prompts: defaultAddAgentPrompts(),
  };

  const subscriptions: vscode.Disposable[] = [
    catalog,
    review,
    terminals,
    workspaceChanges,
    ...(changeReview ? [changeReview] : []),
    mentions,
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
    subscriptions.push(...registerMcpCommands(mcp, log));
    subscriptions.push(
      ...registerAddAgentCommands({
        registry: registry.service,
        prompts: registry.prompts,
        catalog,
        chat,
        reveal: () => view.reveal(),
        log,
      }),
    );
    subscriptions.push(
      registerCheckAgents({
        catalog,
        log,
        cwd,
        storage: context.globalStorageUri,
        extensionVersion: String(context.extension.packageJSON.version),
        parseJsonc,
        knownAgents: async () =>
          knownAgentsOf((await registry.service.load()).agents, platformKey(process.platform, process.arch)),
      }),
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
      mcp,
      panels,
      mentions,
      sidebar: view,
      registry,
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
function loadCheckpoints(bundlePath: string): typeof CheckpointsCore {
  // A path, not a module name: esbuild leaves it alone and the store stays a bundle of its own.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(bundlePath) as typeof CheckpointsCore;
}
