/**
 * The MCP feature as a bundle of its own (`dist/mcp.js`, built by esbuild.mjs): loaded with the first
 * session start (which asks for the servers) or the first MCP command, not with the chat.
 */
import type * as vscode from 'vscode';
import type { Logger } from '../../../core/ports';
import type { UserPrompts } from '../../../vscode/userPrompts';
import type { WorkspaceConsent } from '../../../chat/workspaceConsent';
import { McpServerSource } from './mcpServerSource';

export { MCP_COMMANDS, mcpCommands } from './mcpCommands';
export { parseJsonc } from '../chat/vscodeMcpConfig';
export type { McpServerSource } from './mcpServerSource';

/** The servers given to sessions, with the consent (shared with the workspace's agents) asked for the workspace's own. */
export function createMcpServerSource(
  secrets: vscode.SecretStorage,
  consent: WorkspaceConsent,
  prompts: UserPrompts,
  logger: Logger,
): McpServerSource {
  return new McpServerSource(secrets, prompts, logger, consent);
}
