import * as z from 'zod/mini';
import '../core/util/zodEnglish';
import type { AgentDefinition } from './agentDefinition';
import { isSameAgent } from './agentPresets';

/** One agent as the user configures it in `acpAgents.agents`. */
export const AgentSettingSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'needs a name')),
  command: z.string().check(z.trim(), z.minLength(1, 'needs a command')),
  args: z._default(z.array(z.string()), []),
  env: z._default(z.record(z.string(), z.string()), {}),
  /** Set by Add Agent: the ACP Registry entry it was installed from, so Update can find a newer one. */
  registry: z.optional(
    z.object({ id: z.string().check(z.minLength(1)), version: z.string().check(z.minLength(1)) }),
  ),
});

export type AgentSetting = z.infer<typeof AgentSettingSchema>;

// Defined apart so that copilotAgent.ts can use it without importing this file (which imports it).
export type { AgentDefinition } from './agentDefinition';

export const DEMO_AGENT_ID = 'demo';

export interface ParsedAgents {
  readonly agents: readonly AgentDefinition[];
  /** One line per invalid entry, for the user. The valid entries are still used. */
  readonly errors: readonly string[];
}

/**
 * Parses `acpAgents.agents` (untrusted JSON from settings.json) entry by entry, so one bad entry
 * does not hide the others, then adds the installed presets the user did not configure
 * themselves. The demo agent is always offered, last: the first configured agent is the default,
 * and the demo stays there to try things offline.
 */
export function parseAgentSettings(
  raw: unknown,
  demo: AgentDefinition,
  presets: readonly AgentDefinition[] = [],
  /** Where `raw` comes from when the workspace's settings define it (each agent then has an `origin`). */
  workspaceSource?: string,
): ParsedAgents {
  const errors: string[] = [];
  const agents: AgentDefinition[] = [];
  const list = raw === undefined || raw === null ? [] : raw;
  if (!Array.isArray(list)) {
    errors.push('acpAgents.agents must be a list of agents.');
  } else {
    list.forEach((item: unknown, index) => {
      const parsed = AgentSettingSchema.safeParse(item);
      if (!parsed.success) {
        const detail = parsed.error.issues
          .map((issue) => `${issue.path.join('.') || 'entry'} ${issue.message}`)
          .join('; ');
        errors.push(`acpAgents.agents[${index}]: ${detail}`);
        return;
      }
      const id = uniqueId(parsed.data.name, agents);
      agents.push({
        id,
        label: parsed.data.name,
        description: [parsed.data.command, ...parsed.data.args].join(' '),
        command: parsed.data.command,
        args: parsed.data.args,
        env: parsed.data.env,
        ...(parsed.data.registry ? { registryId: parsed.data.registry.id } : {}),
        ...(workspaceSource !== undefined
          ? { origin: { name: parsed.data.name, source: workspaceSource, definition: item } }
          : {}),
      });
    });
  }
  const extra = presets.filter((preset) => !agents.some((agent) => isSameAgent(agent, preset)));
  return { agents: [...agents, ...extra, demo], errors };
}

function uniqueId(name: string, taken: readonly AgentDefinition[]): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const base = `agent:${slug || 'agent'}`;
  let id = base;
  for (let n = 2; taken.some((agent) => agent.id === id); n++) {
    id = `${base}-${n}`;
  }
  return id;
}
