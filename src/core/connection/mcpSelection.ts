import type * as acp from '@agentclientprotocol/sdk';

/** The MCP servers an agent can take, and the ones it cannot (with why, for the log). */
export interface McpServerSelection {
  readonly accepted: acp.McpServer[];
  readonly skipped: { readonly name: string; readonly reason: string }[];
}

/**
 * Keeps the servers the agent's `mcpCapabilities` allow: every agent must take stdio servers; http
 * and sse only when advertised. Servers with a name already taken are dropped (the first wins), since
 * agents key their tools by server name.
 */
export function selectMcpServers(
  servers: readonly acp.McpServer[],
  capabilities: acp.McpCapabilities | null | undefined,
  agentName: string,
): McpServerSelection {
  const accepted: acp.McpServer[] = [];
  const skipped: { name: string; reason: string }[] = [];
  const names = new Set<string>();
  for (const server of servers) {
    const transport = 'type' in server ? server.type : 'stdio';
    if (names.has(server.name)) {
      skipped.push({ name: server.name, reason: 'another server has the same name' });
    } else if (transport !== 'stdio' && capabilities?.[transport] !== true) {
      skipped.push({ name: server.name, reason: `${agentName} does not take ${transport} MCP servers` });
    } else {
      names.add(server.name);
      accepted.push(server);
    }
  }
  return { accepted, skipped };
}
