import * as z from 'zod';

/** One agent as the user configures it in `acpAgents.agents`. */
export const AgentSettingSchema = z.object({
  name: z.string().trim().min(1, 'needs a name'),
  command: z.string().trim().min(1, 'needs a command'),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
});

export type AgentSetting = z.infer<typeof AgentSettingSchema>;

/** An agent the chat can start: a setting, or the built-in demo agent. */
export interface AgentDefinition {
  readonly id: string;
  readonly label: string;
  readonly description?: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export const DEMO_AGENT_ID = 'demo';

export interface ParsedAgents {
  readonly agents: readonly AgentDefinition[];
  /** One line per invalid entry, for the user. The valid entries are still used. */
  readonly errors: readonly string[];
}

/**
 * Parses `acpAgents.agents` (untrusted JSON from settings.json) entry by entry, so one bad entry
 * does not hide the others, then adds the installed presets the user did not configure
 * themselves. The demo agent is offered when there is no other agent.
 */
export function parseAgentSettings(
  raw: unknown,
  demo: AgentDefinition,
  presets: readonly AgentDefinition[] = [],
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
      });
    });
  }
  const extra = presets.filter((preset) => !agents.some((agent) => agent.command === preset.command));
  const all = [...agents, ...extra];
  return { agents: all.length > 0 ? all : [demo], errors };
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
