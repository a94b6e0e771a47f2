/**
 * The chat's composition root, built into its own bundle (`dist/chat.js`): the schemas, the controller
 * and the journal load only when the chat is first needed — the view opens, an editor-tab chat is
 * restored, a command runs, a test asks for the hooks — not when the extension activates (`extension.ts`
 * registers thin stand-ins that call `createChatHost` on first use). The agent connection (the ACP SDK)
 * loads later still, with the first agent start. The features are composed in `chatFeatures.ts`.
 */
import * as vscode from 'vscode';
import { chatBase, type ChatBase } from './chatBase';
import { chatFeatures, type ChatFeatures, type FeatureHooks } from './chatFeatures';
import { ChatController, type ChatControllerDeps } from './chat/chatController';
import type * as Connection from './core/connection/agentClient';
import type * as Doctor from './features/doctor/vscode';
import type * as Mcp from './features/mcp/vscode';
import { MCP_COMMANDS } from './features/mcp/vscode/mcpCommands';
import type * as Registry from './features/registry/vscode';
import { ADD_AGENT_COMMANDS } from './features/registry/vscode/addAgentCommandIds';
import { AgentCatalog, demoAgent } from './vscode/agentCatalog';
import { askAgentConsent } from './vscode/agentConsentPrompt';
import type { AgentDefinition } from './chat/agentDefinition';
import { WorkspaceConsent, type WorkspaceDefinition } from './chat/workspaceConsent';
import { ChatActivitySurfaces } from './vscode/chatActivitySurfaces';
import { chatIdOnScreen, openChat, type ChatViewRefs } from './vscode/chatOnScreen';
import { ChatPanels } from './vscode/chatPanels';
import { ChatViewProvider } from './vscode/chatViewProvider';
import { registerCommands } from './vscode/commands';
import { VsCodeEditorActions } from './vscode/editorActions';
import { registerEditorTabCommands } from './vscode/editorTabCommands';
import { registerChatTitleActions } from './vscode/chatTitleActions';
import { OnFirstUse, registerLazyCommands } from './vscode/lazyBundles';
import {
  agentIdleStopMs,
  defaultAgentId,
  fileSettings,
  historyRetention,
  maxMessageChars,
  requestDeadlines,
} from './vscode/settings';
import { VsCodeSignIn } from './vscode/signInHost';
import { AgentStatusBar } from './vscode/statusBar';
import type { SwappablePrompts } from './vscode/userPrompts';
import { WorkspaceFileSystem } from './vscode/workspaceFileSystem';

/**
 * The test hooks: what the extension exposes to its integration tests, and only to them (an
 * extension host in `ExtensionMode.Test`); other extensions get nothing (see `exports.ts`).
 */
export interface AcpAgentsApi extends FeatureHooks {
  readonly chat: ChatController;
  /** The dialog seam: tests install scripted answers here instead of skipping dialogs. */
  readonly prompts: SwappablePrompts;
  readonly statusBar: AgentStatusBar;
  /** Every chat's status outside the views: the status-bar entry, the view's badge, the notifications. */
  readonly chatActivity: ChatActivitySurfaces;
  /** The agents offered and the settings errors found (`acpAgents.agents`). */
  readonly catalog: AgentCatalog;
  /** The chat in an editor tab ("ACP: Open Chat in Editor"). */
  readonly panels: ChatPanels;
  /** The MCP servers given to sessions (`acpAgents.mcpServers`, secrets from SecretStorage). */
  readonly mcp: Mcp.McpServerSource;
  /** The sidebar's chat view (whether it is on screen). */
  readonly sidebar: ChatViewProvider;
  /** The ACP Registry and Add Agent's questions (tests install scripted answers in `prompts.current`). */
  readonly registry: Registry.Registry;
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

/** The parts of the built chat that its commands and test hooks reach. */
interface BuiltChat {
  readonly chat: ChatController;
  readonly catalog: AgentCatalog;
  readonly view: ChatViewProvider;
  readonly panels: ChatPanels;
  readonly statusBar: AgentStatusBar;
  readonly chatActivity: ChatActivitySurfaces;
  readonly features: ChatFeatures;
  readonly mcp: OnFirstUse<Mcp.McpServerSource>;
  readonly registry: OnFirstUse<Registry.Registry>;
  /** Whether an agent the workspace's own settings define may run (asked once per definition). */
  readonly allowProgram: (agent: AgentDefinition, origin: WorkspaceDefinition) => Promise<boolean>;
}

/**
 * Builds the chat: every object, and the registrations of its commands and listeners. `log` is the
 * extension's output channel (made at activation, owned by it). Every lifetime goes to the returned host;
 * a half-built chat leaves nothing registered (the next use builds it again from scratch).
 */
export function createChatHost(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): ChatHost {
  const lifetimes: vscode.Disposable[] = [];
  const dispose = (): void => {
    for (const lifetime of lifetimes.splice(0).reverse()) {
      lifetime.dispose();
    }
  };
  try {
    const base = chatBase(context, log, lifetimes);
    const built = buildChat(base);
    registerChatCommands(base, built);
    return {
      view: built.view,
      panels: built.panels,
      api: testHooks(base, built),
      shutdown: () => built.chat.shutdown(),
      dispose,
    };
  } catch (error) {
    dispose();
    throw error;
  }
}

/** The objects of the chat, in the order they are disposed last to first. */
function buildChat(base: ChatBase): BuiltChat {
  const { context, log, logger, prompts } = base;
  const catalog = base.own(new AgentCatalog(demoAgent(context.extensionUri, context.globalStorageUri), log));
  // The permission port asks whether the chat view is visible; the view is built after the controller.
  const viewRef: ChatViewRefs = {};
  const features = chatFeatures(base, viewRef);
  // The user's consent to the programs the workspace's own files define: its agents and MCP servers.
  const consent = new WorkspaceConsent(context.workspaceState);
  const allowProgram = (agent: AgentDefinition, origin: WorkspaceDefinition): Promise<boolean> =>
    consent.allowed(origin, () => askAgentConsent(prompts, agent, origin));
  const mcp = new OnFirstUse(() =>
    base.bundle<typeof Mcp>('mcp').createMcpServerSource(context.secrets, consent, prompts, logger),
  );
  const editor = base.own(new VsCodeEditorActions(features.terminals));
  const chat = (viewRef.chat = base.own(
    new ChatController({ ...controllerDeps(base, catalog, features, mcp, editor, viewRef), allowProgram }),
  ));
  const view = (viewRef.current = base.own(new ChatViewProvider(context.extensionUri, chat, log)));
  const statusBar = base.own(new AgentStatusBar(chat));
  const panels = (viewRef.panels = base.own(new ChatPanels(context.extensionUri, chat, log)));
  const chatActivity = base.own(
    new ChatActivitySurfaces({
      activity: chat.activity,
      onScreen: (chatId) => chatIdOnScreen(viewRef, chatId),
      open: (chatId) => openChat(viewRef, chatId),
      setBadge: (waiting, tooltip) => view.setBadge(waiting, tooltip),
      prompts,
    }),
  );
  const registry = new OnFirstUse(() =>
    base
      .bundle<typeof Registry>('registry')
      .createRegistry(context.extensionUri, context.globalStorageUri, log),
  );
  return { chat, catalog, view, panels, statusBar, chatActivity, features, mcp, registry, allowProgram };
}

/** What the controller is given: the agents, the folders, the ports the agents' requests use, the features. */
function controllerDeps(
  base: ChatBase,
  catalog: AgentCatalog,
  features: ChatFeatures,
  mcp: OnFirstUse<Mcp.McpServerSource>,
  editor: VsCodeEditorActions,
  viewRef: ChatViewRefs,
): ChatControllerDeps {
  const { context, log, logger, prompts } = base;
  const folders = (): string[] =>
    (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
  return {
    agents: () => catalog.agents,
    defaultAgentId,
    cwd: base.cwd,
    startClient: (options) => base.bundle<typeof Connection>('connection').AgentClient.start(options),
    additionalDirectories: folders,
    activeFolder: () => {
      const document = vscode.window.activeTextEditor?.document.uri;
      return document && vscode.workspace.getWorkspaceFolder(document)?.uri.fsPath;
    },
    ports: {
      fileSystem: new WorkspaceFileSystem(
        fileSettings,
        prompts,
        logger,
        features.writeReview,
        (sessionId) => {
          // A chat with a place of its own (a worktree) reads and writes there, not in the workspace folders.
          const place = viewRef.chat?.placeOfSession(sessionId);
          return place && [place.cwd, ...(place.additionalDirectories ?? [])];
        },
      ),
      permissions: features.permissions,
      terminals: features.terminals,
      elicitation: features.elicitations,
      logger,
    },
    contributions: features.contributions,
    chatOnScreen: (chatId) => chatIdOnScreen(viewRef, chatId),
    editor,
    workspaceFolders: folders,
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
        mcpServers: () => mcp.get().servers(),
        threadLimits: { maxMessageChars: maxMessageChars() },
        deadlines: requestDeadlines(),
      };
    },
  };
}

/** The chat's listeners and commands: the palette's, the editor tab's, and the lazily loaded features'. */
function registerChatCommands(base: ChatBase, built: BuiltChat): void {
  const { context, log, prompts } = base;
  const { chat, view, panels, catalog, mcp, registry, allowProgram } = built;
  const own = (disposables: readonly vscode.Disposable[]): void => disposables.forEach((d) => base.own(d));
  own([
    catalog.onDidChange(() => chat.agentsChanged()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void chat.restart()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => chat.workspaceFoldersChanged()),
  ]);
  own(registerEditorTabCommands(chat, view, panels));
  own(registerChatTitleActions(view, panels));
  own(registerCommands({ chat, view, prompts, log }));
  own(registerLazyCommands(MCP_COMMANDS, () => base.bundle<typeof Mcp>('mcp').mcpCommands(mcp.get(), log)));
  own(
    registerLazyCommands(ADD_AGENT_COMMANDS, () =>
      base.bundle<typeof Registry>('registry').addAgentCommands({
        registry: registry.get().service,
        prompts: registry.get().prompts,
        catalog,
        chat,
        reveal: () => view.reveal(),
        log,
      }),
    ),
  );
  own(
    registerLazyCommands(['acpAgents.checkAgents'], () => ({
      'acpAgents.checkAgents': () =>
        base.bundle<typeof Doctor>('doctor').checkAgents({
          catalog,
          log,
          cwd: base.cwd,
          storage: context.globalStorageUri,
          extensionVersion: String(context.extension.packageJSON.version),
          parseJsonc: (text) => base.bundle<typeof Mcp>('mcp').parseJsonc(text),
          knownAgents: () => registry.get().knownAgents(),
          allowProgram,
          probeSessions: built.features.probeSessions,
        }),
    })),
  );
}

/** The test hooks (getters for what loads on first use, so reading the API loads nothing). */
function testHooks(base: ChatBase, built: BuiltChat): AcpAgentsApi {
  const { chat, catalog, view, panels, statusBar, chatActivity, features, mcp, registry } = built;
  return {
    ...features.hooks,
    chat,
    prompts: base.prompts,
    statusBar,
    chatActivity,
    catalog,
    panels,
    sidebar: view,
    get mcp() {
      return mcp.get();
    },
    get registry() {
      return registry.get();
    },
  };
}
