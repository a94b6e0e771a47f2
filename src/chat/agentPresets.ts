import { findOnPath, type Environment } from '../core/connection/spawnProgram';
import type { AgentDefinition } from './agentDefinition';
import { isCopilotAgent, programName, programsOf } from './copilotAgent';

/**
 * How to start the ACP agents we know when they are already installed (on PATH), with the id of
 * their ACP Registry entry: that entry gives their name, version and how to install them (see
 * `installAdvice`), so nothing here says which npm package or version to install.
 */
export interface AgentPreset extends AgentDefinition {
  readonly registryId: string;
  /** The npm packages it is also run as (`npx @google/gemini-cli`): the same agent under another name. */
  readonly packages?: readonly string[];
}

export const AGENT_PRESETS: readonly AgentPreset[] = [
  {
    id: 'copilot',
    registryId: 'github-copilot',
    label: 'GitHub Copilot CLI',
    command: 'copilot',
    args: ['--acp', '--stdio'],
    env: {},
  },
  {
    id: 'claude',
    registryId: 'claude-code-acp',
    label: 'Claude Code',
    command: 'claude-agent-acp',
    args: [],
    env: {},
    packages: ['claude-code-acp'],
  },
  {
    id: 'gemini',
    registryId: 'gemini',
    label: 'Gemini CLI',
    command: 'gemini',
    args: ['--acp'],
    env: {},
    packages: ['gemini-cli'],
  },
  { id: 'codex', registryId: 'codex-acp', label: 'Codex', command: 'codex-acp', args: [], env: {} },
  {
    id: 'opencode',
    registryId: 'opencode',
    label: 'OpenCode',
    command: 'opencode',
    args: ['acp'],
    env: {},
    packages: ['opencode-ai'],
  },
];

/**
 * Whether a configured agent is a preset (one row in the picker and in the agent check): added from the
 * preset's ACP Registry entry, or running the preset's program, directly or through a package runner
 * (`npx @zed-industries/claude-agent-acp` is the `claude-agent-acp` preset), or both running Copilot CLI.
 */
export function isSameAgent(
  configured: AgentDefinition,
  preset: Pick<AgentDefinition, 'id' | 'command' | 'args' | 'registryId'>,
): boolean {
  const names = [
    programName(preset.command),
    ...(AGENT_PRESETS.find((known) => known.id === preset.id)?.packages ?? []),
  ];
  return (
    (configured.registryId !== undefined && configured.registryId === preset.registryId) ||
    programsOf(configured).some((program) => names.includes(program)) ||
    (isCopilotAgent(configured) && isCopilotAgent(preset))
  );
}

/** The presets whose command is installed (on `env`'s PATH), described with the command line that will run. */
export function detectPresets(env: Environment): AgentDefinition[] {
  return AGENT_PRESETS.filter((preset) => findOnPath(preset.command, env) !== undefined).map((preset) => ({
    ...preset,
    description: [preset.command, ...preset.args].join(' '),
  }));
}

/** A registry agent as the doctor's advice names it. */
export interface KnownAgent {
  readonly registryId: string;
  readonly name: string;
  readonly version: string;
  /** "npx", "uvx (needs uv)", "download". */
  readonly distribution: string;
}

/** The programs that run a registry agent's package (npx, uvx): missing, the runtime they come with is. */
const RUNTIME_OF: Readonly<Record<string, string>> = {
  npx: 'Node.js (npx comes with it, from nodejs.org or your package manager)',
  uvx: 'uv (uvx comes with it, from docs.astral.sh/uv)',
};

/**
 * What to do about an agent whose command is missing. An agent the user added from the ACP Registry is
 * added: its package runner's runtime is missing, or its download is gone (added again, it is downloaded
 * again). Otherwise add it from the registry with Add Agent (no terminal, no global install) when the
 * registry has it, else the generic way.
 */
export function installAdvice(
  agent: Pick<AgentDefinition, 'command' | 'registryId' | 'label'>,
  known: readonly KnownAgent[],
): string {
  const name = programName(agent.command);
  if (agent.registryId !== undefined && !AGENT_PRESETS.some((p) => p.command === agent.command)) {
    const runtime = RUNTIME_OF[name];
    return runtime
      ? `${agent.label} was added from the ACP Registry and runs through \`${name}\`: install ${runtime}, then restart VS Code.`
      : `${agent.label} was added from the ACP Registry, but its downloaded program is gone: pick it again in _ACP: Add Agent…_ to download it again.`;
  }
  const preset = AGENT_PRESETS.find((p) => p.command === name);
  const entry = preset && known.find((candidate) => candidate.registryId === preset.registryId);
  if (entry) {
    return `Run _ACP: Add Agent…_ and pick **${entry.name}** (${entry.version}, ${entry.distribution}): it is installed and added for you.`;
  }
  return 'Run _ACP: Add Agent…_ to install an agent from the ACP Registry, or set the full path of the program in `acpAgents.agents` ("command").';
}
