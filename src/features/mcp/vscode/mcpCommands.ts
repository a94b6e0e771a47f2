import * as vscode from 'vscode';
import type { CommandHandlers } from '../../../vscode/lazyBundles';
import type { McpServerSource } from './mcpServerSource';

/** The MCP commands' ids (registered with the chat; their handlers load with `dist/mcp.js`). */
export const MCP_COMMANDS = ['acpAgents.resetMcpConsent', 'acpAgents.setMcpSecret'] as const;

/**
 * "ACP: Reset Consent to Workspace Programs" (the workspace's agents and MCP servers), and "ACP: Set MCP Secret": a value for `${secret:NAME}` in
 * `acpAgents.mcpServers`, kept in SecretStorage.
 */
export function mcpCommands(source: McpServerSource, log: vscode.LogOutputChannel): CommandHandlers {
  return {
    'acpAgents.resetMcpConsent': async () => {
      const count = await source.consent.revokeAll();
      void vscode.window.showInformationMessage(
        count === 0
          ? 'ACP Agents: no answer about this workspace’s agents and MCP servers was kept.'
          : `ACP Agents: ${count} answer${count === 1 ? '' : 's'} about this workspace’s agents and MCP servers forgotten; you are asked again before they next run.`,
      );
      return count;
    },
    'acpAgents.setMcpSecret': async (name?: unknown) => {
      try {
        if (await source.askAndStore(typeof name === 'string' ? name : undefined)) {
          void vscode.window.showInformationMessage(
            'ACP Agents: the MCP secret is stored. Agents get it with their next session (Restart Agent to apply it now).',
          );
        }
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log.error(`Set MCP Secret failed: ${message}`);
        void vscode.window.showErrorMessage(`ACP Agents: ${message}`);
      }
    },
  };
}
