import type { UserPrompts } from '../../../vscode/userPrompts';
import { describeServer, type ConsentAnswer, type WorkspaceMcpServer } from '../chat/mcpConsent';

const ALLOW = 'Allow';
const DENY = 'Don’t Allow';

/** The consent question for a workspace-defined MCP server, as a modal (the session waits for it). */
export async function askMcpConsent(
  prompts: UserPrompts,
  server: WorkspaceMcpServer,
): Promise<ConsentAnswer> {
  const answer = await prompts.modal(
    `Give the MCP server "${server.name}" from this workspace to agents?`,
    `${server.source} defines it: it ${describeServer(server.definition)}. An agent can then use it, ` +
      'with the environment variables and secrets its definition names. Allow it only if you trust ' +
      'this repository. The answer is kept for this workspace until the definition changes ' +
      '(ACP: Reset MCP Server Consent forgets it).',
    [ALLOW, DENY],
  );
  return answer === ALLOW ? 'allow' : answer === DENY ? 'deny' : undefined;
}
