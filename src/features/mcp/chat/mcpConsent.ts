import type { WorkspaceDefinition } from '../../../chat/workspaceConsent';

/**
 * One MCP server a workspace file defines, as written (before any variable is filled in): given to an
 * agent only once the user allowed it (`WorkspaceConsent`, shared with the workspace's agents), as VS
 * Code asks for its own. Variables (`${input:…}`, `${env:…}`) are filled in only after that.
 */
export type WorkspaceMcpServer = WorkspaceDefinition;

/** What the question shows of a definition: the program and its arguments, or the URL (no env or header values). */
export function describeServer(definition: unknown): string {
  const record = recordOf(definition);
  if (typeof record.url === 'string') {
    return `connects to ${record.url}`;
  }
  const args = Array.isArray(record.args) ? record.args.filter((a) => typeof a === 'string') : [];
  return `runs ${[String(record.command ?? '?'), ...args].join(' ')}`;
}

/** `${secret:…}`, `${input:…}` (kept as a secret), `${env:…}`: what a definition takes from the user. */
const REFERENCE = /\$\{(secret|input|env):([^}]+)\}/g;

/**
 * Each secret and environment variable a definition names, and where it goes — a header sent to its URL,
 * the URL itself, the program's environment or arguments — one line each, for the consent question.
 * Read from the definition as written (either `acpAgents.mcpServers`' `[{ name, value }]` lists or
 * `mcp.json`'s objects), before any of them is filled in.
 */
export function describeSecrets(definition: unknown): string[] {
  const record = recordOf(definition);
  const url = typeof record.url === 'string' ? record.url : undefined;
  const places: [string, unknown][] = url
    ? [
        ...namedValues(record.headers).map(([name, value]): [string, unknown] => [
          `in the header "${name}" sent to ${hostOf(url)}`,
          value,
        ]),
        [`in the URL it connects to (${hostOf(url)})`, url],
      ]
    : [
        ...namedValues(record.env).map(([name, value]): [string, unknown] => [
          `in the program's environment variable "${name}"`,
          value,
        ]),
        ...(Array.isArray(record.args) ? record.args : []).map((value, index): [string, unknown] => [
          `in the program's argument ${index + 1}`,
          value,
        ]),
        ["in the program's command", record.command],
      ];
  return places.flatMap(([where, value]) =>
    typeof value === 'string'
      ? [...value.matchAll(REFERENCE)].map(
          (match) => `${whatIs(match[1] as string, match[2] as string)} ${where}`,
        )
      : [],
  );
}

function whatIs(kind: string, name: string): string {
  return kind === 'env' ? `your environment variable "${name}"` : `your secret "${name}"`;
}

/** `[{ name, value }]` (our setting) or `{ name: value }` (mcp.json) as pairs. */
function namedValues(raw: unknown): [string, unknown][] {
  if (Array.isArray(raw)) {
    return raw.map((pair) => [String(recordOf(pair).name ?? '?'), recordOf(pair).value]);
  }
  return Object.entries(recordOf(raw));
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

function recordOf(value: unknown): Record<string, unknown> {
  return (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as Record<
    string,
    unknown
  >;
}
