import type { UserPrompts } from '../../../vscode/userPrompts';
import type { ConsentAnswer } from '../../../chat/workspaceConsent';
import { describeSecrets, describeServer, type WorkspaceMcpServer } from '../chat/mcpConsent';

const ALLOW = 'Allow';
const DENY = 'Don’t Allow';

/**
 * The consent question for a workspace-defined MCP server, as a modal (the session waits for it): what it
 * runs or connects to, and each secret and environment variable of yours it would be given and where.
 */
export async function askMcpConsent(
  prompts: UserPrompts,
  server: WorkspaceMcpServer,
): Promise<ConsentAnswer> {
  const secrets = describeSecrets(server.definition);
  const given =
    secrets.length === 0
      ? 'It is given none of your secrets or environment variables.'
      : `Once allowed, it is given:\n${secrets.map((line) => `• ${line}`).join('\n')}\n` +
        ('url' in Object(server.definition) ? '' : 'The program can send what it is given anywhere.\n');
  const answer = await prompts.modal(
    `Give the MCP server "${server.name}" from this workspace to agents?`,
    `${server.source} defines it: it ${describeServer(server.definition)}. ${given}\n` +
      'An agent can then use it. Allow it only if you trust this repository. The answer is kept for this ' +
      'workspace until the definition changes (ACP: Reset Consent to Workspace Programs forgets it).',
    [ALLOW, DENY],
  );
  return answer === ALLOW ? 'allow' : answer === DENY ? 'deny' : undefined;
}
