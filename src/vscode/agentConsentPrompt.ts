import type { AgentDefinition } from '../chat/agentDefinition';
import type { ConsentAnswer, WorkspaceDefinition } from '../chat/workspaceConsent';
import type { UserPrompts } from './userPrompts';

const ALLOW = 'Allow';
const DENY = 'Don’t Allow';

/**
 * The question before an agent the workspace's own settings define runs for the first time (as VS Code
 * asks before a folder's automatic tasks): its command line as it would run, with the environment it
 * sets. A modal: the agent's start waits for it.
 */
export async function askAgentConsent(
  prompts: UserPrompts,
  agent: AgentDefinition,
  origin: WorkspaceDefinition,
): Promise<ConsentAnswer> {
  const env = Object.entries(agent.env).map(([name, value]) => `${name}=${shellWord(value)}`);
  const answer = await prompts.modal(
    `Run the agent "${agent.label}" that this workspace's settings define?`,
    `${capitalised(origin.source)} define it. It runs:\n\n${commandLine(agent)}\n\n` +
      (env.length > 0 ? `with the environment ${env.join(' ').slice(0, 600)}\n\n` : '') +
      'It can then read, write and run anything in the workspace. Allow it only if you trust this ' +
      'repository. The answer is kept for this workspace until the definition changes ' +
      '(ACP: Reset Consent to Workspace Programs forgets it).',
    [ALLOW, DENY],
  );
  return answer === ALLOW ? 'allow' : answer === DENY ? 'deny' : undefined;
}

/** The command and its arguments as a shell would need them written (quoted where they hold spaces). */
export function commandLine(agent: Pick<AgentDefinition, 'command' | 'args'>): string {
  const line = [agent.command, ...agent.args].map(shellWord).join(' ');
  return line.length > 1_000 ? `${line.slice(0, 1_000)}…` : line;
}

function shellWord(word: string): string {
  return word === '' || /[\s"'\\$`]/.test(word) ? `'${word.replace(/'/g, `'\\''`)}'` : word;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
