import type * as acp from '@agentclientprotocol/sdk';
import * as z from 'zod';

const NameValueSchema = z.object({ name: z.string().trim().min(1, 'needs a name'), value: z.string() });

/** One server of `acpAgents.mcpServers`, in ACP's shapes: stdio (no `type`, or `"stdio"`), http or sse. */
export const McpServerSettingSchema = z.union([
  z.object({
    type: z.literal('stdio').optional(),
    name: z.string().trim().min(1, 'needs a name'),
    command: z.string().trim().min(1, 'needs a command'),
    args: z.array(z.string()).default([]),
    env: z.array(NameValueSchema).default([]),
  }),
  z.object({
    type: z.enum(['http', 'sse']),
    name: z.string().trim().min(1, 'needs a name'),
    url: z.url(),
    headers: z.array(NameValueSchema).default([]),
  }),
]);

export type McpServerSetting = z.infer<typeof McpServerSettingSchema>;

export interface ParsedMcpServers {
  readonly servers: readonly McpServerSetting[];
  /** One line per invalid entry, for the log; the valid entries are still used. */
  readonly errors: readonly string[];
}

/** Parses `acpAgents.mcpServers` (untrusted JSON from settings.json) entry by entry. */
export function parseMcpServerSettings(raw: unknown, source = 'acpAgents.mcpServers'): ParsedMcpServers {
  if (raw === undefined || raw === null) {
    return { servers: [], errors: [] };
  }
  if (!Array.isArray(raw)) {
    return { servers: [], errors: [`${source} must be a list of servers.`] };
  }
  const servers: McpServerSetting[] = [];
  const errors: string[] = [];
  raw.forEach((item: unknown, index) => {
    const parsed = McpServerSettingSchema.safeParse(item);
    if (parsed.success) {
      servers.push(parsed.data);
    } else {
      const detail = parsed.error.issues
        .map((issue) => `${issue.path.join('.') || 'entry'} ${issue.message}`)
        .join('; ');
      errors.push(`${source}[${index}]: ${detail}`);
    }
  });
  return { servers, errors };
}

/** `${secret:NAME}` in an env or header value: replaced by the secret NAME at session time. */
const SECRET_REFERENCE = /\$\{secret:([^}]+)\}/g;

/** The secret names a value refers to. */
export function secretNamesIn(value: string): string[] {
  return [...value.matchAll(SECRET_REFERENCE)].map((match) => (match[1] as string).trim());
}

export interface ResolvedMcpServers {
  readonly servers: acp.McpServer[];
  /** Servers left out, with why (a secret that is not set). */
  readonly problems: readonly string[];
}

/**
 * The settings as ACP `McpServer`s, with `${secret:NAME}` in env and header values replaced from
 * `secret` (SecretStorage in VS Code). The result lives only in the session request: it is never
 * written back to settings or the journal. A server whose secret is not set is left out, not sent
 * with a hole in it.
 */
export async function resolveMcpServers(
  settings: readonly McpServerSetting[],
  secret: (name: string) => Promise<string | undefined>,
): Promise<ResolvedMcpServers> {
  const servers: acp.McpServer[] = [];
  const problems: string[] = [];
  for (const setting of settings) {
    const pairs = 'url' in setting ? setting.headers : setting.env;
    const missing: string[] = [];
    const resolved: acp.EnvVariable[] = [];
    for (const pair of pairs) {
      const found = new Map<string, string>();
      for (const name of new Set(secretNamesIn(pair.value))) {
        const value = await secret(name);
        if (value === undefined) {
          missing.push(name);
        } else {
          found.set(name, value);
        }
      }
      resolved.push({
        name: pair.name,
        value: pair.value.replace(SECRET_REFERENCE, (whole, name: string) => found.get(name.trim()) ?? whole),
      });
    }
    if (missing.length > 0) {
      problems.push(
        `MCP server "${setting.name}" skipped: the secret ${missing.map((name) => `"${name}"`).join(', ')} is not set (command "ACP: Set MCP Secret").`,
      );
      continue;
    }
    servers.push(
      'url' in setting
        ? { type: setting.type, name: setting.name, url: setting.url, headers: resolved }
        : { name: setting.name, command: setting.command, args: [...setting.args], env: resolved },
    );
  }
  return { servers, problems };
}
