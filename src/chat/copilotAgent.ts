import type { AgentDefinition } from './agentDefinition';

/** The npm package of GitHub Copilot CLI, as run through `npx` and friends. */
const COPILOT_PACKAGE = /^@github\/copilot(@[^/]*)?$/;
const PACKAGE_RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'pnpm', 'yarn', 'npm']);

/** The program's name without its folder or Windows extension: `C:\bin\copilot.cmd` → `copilot`. */
export function programName(command: string): string {
  const base = command.split(/[\\/]/).at(-1) ?? command;
  return base.replace(/\.(cmd|bat|exe|ps1)$/i, '').toLowerCase();
}

/**
 * The programs an agent runs: its command's name and, for a package runner (`npx @scope/tool@1`),
 * the packages' names (`tool`), which are the names their binaries are installed under.
 */
export function programsOf(agent: Pick<AgentDefinition, 'command' | 'args'>): string[] {
  const program = programName(agent.command);
  if (!PACKAGE_RUNNERS.has(program)) {
    return [program];
  }
  const packages = agent.args
    .filter((arg) => !arg.startsWith('-'))
    .map((arg) =>
      arg
        .replace(/^@[^/]+\//, '')
        .replace(/@.*$/, '')
        .toLowerCase(),
    )
    .filter((name) => /^[a-z0-9][a-z0-9._-]*$/.test(name));
  return [program, ...packages];
}

/**
 * Whether an agent runs GitHub Copilot CLI: its program is `copilot` (on PATH or a path to it), or
 * a package runner starts `@github/copilot` (`npx @github/copilot --acp`).
 */
export function isCopilotAgent(agent: Pick<AgentDefinition, 'command' | 'args'>): boolean {
  const program = programName(agent.command);
  if (program === 'copilot') {
    return true;
  }
  return PACKAGE_RUNNERS.has(program) && agent.args.some((arg) => COPILOT_PACKAGE.test(arg));
}

/** Which agent "Send to Copilot" means, or why there is none. */
export type CopilotChoice =
  | { readonly kind: 'found'; readonly agent: AgentDefinition }
  | { readonly kind: 'none' }
  | { readonly kind: 'unknown_setting'; readonly name: string };

/**
 * The agent "Send to Copilot" goes to: the one named in `acpAgents.copilotAgent` (by name or
 * id) when set, otherwise the first offered agent that runs Copilot CLI (a configured one comes
 * before the detected preset, as the list is ordered). A setting naming no offered agent is
 * reported rather than quietly replaced by another agent.
 */
export function findCopilotAgent(
  agents: readonly AgentDefinition[],
  configuredName: string | undefined,
): CopilotChoice {
  const wanted = configuredName?.trim();
  if (wanted) {
    const named = agents.find((agent) => agent.label === wanted || agent.id === wanted);
    return named ? { kind: 'found', agent: named } : { kind: 'unknown_setting', name: wanted };
  }
  const detected = agents.find(isCopilotAgent);
  return detected ? { kind: 'found', agent: detected } : { kind: 'none' };
}
