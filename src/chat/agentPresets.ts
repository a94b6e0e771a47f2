import { findOnPath, type Environment } from '../core/spawnProgram';
import type { AgentDefinition } from './agentSettings';

/** The ACP agents we know how to start, offered when their command is on PATH. */
export const AGENT_PRESETS: readonly AgentDefinition[] = [
  { id: 'copilot', label: 'GitHub Copilot CLI', command: 'copilot', args: ['--acp', '--stdio'], env: {} },
  { id: 'claude', label: 'Claude Code', command: 'claude-agent-acp', args: [], env: {} },
  { id: 'gemini', label: 'Gemini CLI', command: 'gemini', args: ['--acp'], env: {} },
  { id: 'codex', label: 'Codex', command: 'codex-acp', args: [], env: {} },
  { id: 'opencode', label: 'OpenCode', command: 'opencode', args: ['acp'], env: {} },
];

/** The presets whose command is installed (on `env`'s PATH), described with the command line that will run. */
export function detectPresets(env: Environment): AgentDefinition[] {
  return AGENT_PRESETS.filter((preset) => findOnPath(preset.command, env) !== undefined).map((preset) => ({
    ...preset,
    description: [preset.command, ...preset.args].join(' '),
  }));
}
