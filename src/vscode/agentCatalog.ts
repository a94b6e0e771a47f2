import * as vscode from 'vscode';
import { acpSetting, workspaceSourceOf } from './settings';
import { detectPresets } from '../chat/agentPresets';
import {
  DEMO_AGENT_ID,
  parseAgentSettings,
  type AgentDefinition,
  type ParsedAgents,
} from '../chat/agentSettings';

/**
 * The agents the chat offers: those in `acpAgents.agents`, then the presets found on PATH (Copilot
 * CLI, Claude Code, Gemini CLI, Codex, OpenCode) that the user did not configure themselves.
 * Re-read when settings change (PATH is looked at again then). Invalid entries are reported once
 * per change and skipped; the demo agent fills in when there is no other agent.
 */
export class AgentCatalog implements vscode.Disposable {
  private parsed: ParsedAgents;
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changeEmitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly demoAgent: AgentDefinition,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.parsed = this.read();
    const reread = (): void => {
      this.parsed = this.read();
      this.changeEmitter.fire();
    };
    this.subscription = vscode.Disposable.from(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('acpAgents.agents')) {
          reread();
        }
      }),
      // Trusting the workspace brings in its own agents (restricted settings were user-only before).
      vscode.workspace.onDidGrantWorkspaceTrust(reread),
    );
  }

  get agents(): ParsedAgents {
    return this.parsed;
  }

  private read(): ParsedAgents {
    const raw = acpSetting('agents');
    const parsed = parseAgentSettings(raw, this.demoAgent, detectPresets(process.env), workspaceSourceOf('agents'));
    if (parsed.errors.length > 0) {
      for (const error of parsed.errors) {
        this.log.warn(error);
      }
      void vscode.window.showWarningMessage(
        `ACP Agents: some agent settings are invalid. ${parsed.errors.join(' ')}`,
      );
    }
    return parsed;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changeEmitter.dispose();
  }
}

/** The offline demo agent: the scriptable test agent bundled with the extension. */
export function demoAgent(extensionUri: vscode.Uri, storage: vscode.Uri): AgentDefinition {
  return {
    id: DEMO_AGENT_ID,
    label: 'Demo agent (offline)',
    description: 'Built in; answers without an account or network',
    command: process.execPath,
    args: [vscode.Uri.joinPath(extensionUri, 'dist', 'demo-agent.js').fsPath],
    // The extension host may be Electron: make its binary behave as plain Node for the script.
    // Its sessions are kept on disk, so chats with it can be loaded again after a restart.
    env: {
      ELECTRON_RUN_AS_NODE: '1',
      TEST_AGENT_STATE_DIR: vscode.Uri.joinPath(storage, 'demo-agent').fsPath,
    },
  };
}
