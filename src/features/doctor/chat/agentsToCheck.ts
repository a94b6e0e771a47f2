import { AGENT_PRESETS, isSameAgent } from '../../../chat/agentPresets';
import { DEMO_AGENT_ID, type AgentDefinition } from '../../../chat/agentSettings';
import type { AgentOrigin } from './diagnosis';

/**
 * The chat's agents (configured, added from the registry, detected, or the demo), then the known agents it
 * does not offer — one row per agent: a preset the user added with Add Agent… or configured by hand is that
 * row, never a second "not installed" one.
 */
export function agentsToCheck(
  offered: readonly AgentDefinition[],
): { agent: AgentDefinition; origin: AgentOrigin }[] {
  const checked = offered.map((agent) => ({ agent, origin: originOf(agent) }));
  const missing = AGENT_PRESETS.filter((preset) => !offered.some((agent) => isSameAgent(agent, preset)));
  return [...checked, ...missing.map((agent) => ({ agent, origin: 'preset' as const }))];
}

function originOf(agent: AgentDefinition): AgentOrigin {
  if (agent.id === DEMO_AGENT_ID) {
    return 'built-in';
  }
  if (AGENT_PRESETS.some((preset) => preset.id === agent.id)) {
    return 'detected';
  }
  return agent.registryId !== undefined ? 'registry' : 'configured';
}
