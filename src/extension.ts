import * as os from 'node:os';
import * as vscode from 'vscode';
import { NodeFileSystem } from './core/node/nodeFileSystem';
import { NodeTerminals } from './core/node/nodeTerminals';
import { PolicyPermissions } from './core/node/policyPermissions';
import { AgentCatalog, demoAgent } from './vscode/agentCatalog';
import { ChatController } from './vscode/chat/chatController';
import { ChatViewProvider } from './vscode/chatViewProvider';
import { VsCodeEditorActions } from './vscode/editorActions';
import { channelLogger } from './vscode/logChannel';

/** What the extension exposes to its integration tests and to other extensions. */
export interface AcpAgentsApi {
  readonly chat: ChatController;
}

/** Composition root: build the objects, register them, hand every lifetime to VS Code. */
export function activate(context: vscode.ExtensionContext): AcpAgentsApi {
  const log = vscode.window.createOutputChannel('ACP Agents', { log: true });
  const catalog = new AgentCatalog(demoAgent(context.extensionUri), log);
  const cwd = (): string => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
  const terminals = new NodeTerminals(cwd());
  const chat = new ChatController({
    agents: () => catalog.agents,
    cwd,
    ports: {
      fileSystem: new NodeFileSystem(),
      // Permission requests are answered inline in the chat view until the editor integration lands.
      permissions: new PolicyPermissions(() => undefined),
      terminals,
      logger: channelLogger(log),
    },
    editor: new VsCodeEditorActions(),
    clientOptions: {
      clientInfo: {
        name: 'acp-agents-vscode',
        title: 'ACP Agents for VS Code',
        version: context.extension.packageJSON.version,
      },
    },
  });
  const view = new ChatViewProvider(context.extensionUri, chat, log);

  context.subscriptions.push(
    log,
    catalog,
    chat,
    view,
    { dispose: () => void terminals.dispose() },
    catalog.onDidChange(() => chat.agentsChanged()),
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, view),
  );
  return { chat };
}

export function deactivate(): void {}
