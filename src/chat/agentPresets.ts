import { findOnPath, type Environment } from '../core/connection/spawnProgram';
import type { AgentDefinition } from './agentSettings';

/**
 * How to start the ACP agents we know when they are already installed (on PATH), with the id of
 * their ACP Registry entry: that entry gives their name, version and how to install them (see
 * `installAdvice`), so nothing here says which npm package or version to install.
 */
export interface AgentPreset extends AgentDefinition {
  readonly registryId: string;
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
  },
  { id: 'gemini', registryId: 'gemini', label: 'Gemini CLI', command: 'gemini', args: ['--acp'], env: {} },
  { id: 'codex', registryId: 'codex-acp', label: 'Codex', command: 'codex-acp', args: [], env: {} },
  { id: 'opencode', registryId: 'opencode', label: 'OpenCode', command: 'opencode', args: ['acp'], env: {} },
];

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

/**
 * What to do about an agent whose command is missing: add it from the ACP Registry with Add Agent
 * (no terminal, no global install) when the registry has it, else the generic way.
 */
export function installAdvice(command: string, known: readonly KnownAgent[]): string {
  const name = command
    .split(/[\\/]/)
    .at(-1)
    ?.replace(/\.(cmd|exe|bat)$/i, '');
  const preset = AGENT_PRESETS.find((p) => p.command === name);
  const entry = preset && known.find((agent) => agent.registryId === preset.registryId);
  if (entry) {
    return `Run _ACP: Add Agent…_ and pick **${entry.name}** (${entry.version}, ${entry.distribution}): it is installed and added for you.`;
  }
  return 'Run _ACP: Add Agent…_ to install an agent from the ACP Registry, or set the full path of the program in `acpAgents.agents` ("command").';
}
