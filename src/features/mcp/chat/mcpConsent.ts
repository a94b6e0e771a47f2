import { createHash } from 'node:crypto';

/** Where decisions are kept: the workspace's own storage (VS Code's `workspaceState`). */
export interface ConsentMemory {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** The user's answer; undefined when the question was dismissed (then it is asked again next time). */
export type ConsentAnswer = 'allow' | 'deny' | undefined;

/** One MCP server a workspace file defines, as written (before any variable is filled in). */
export interface WorkspaceMcpServer {
  readonly name: string;
  /** Where it is defined, for the question: `.vscode/mcp.json`, `settings "mcp.servers"`, … */
  readonly source: string;
  /** The definition as written in the file. */
  readonly definition: unknown;
}

const KEY = 'acpAgents.mcpConsent';

/**
 * Consent for MCP servers that come from the workspace, as VS Code asks for its own: a server the
 * repository defines is given to an agent only once the user allowed it. The answer is remembered
 * per workspace, keyed by a hash of the definition as written, so a changed command, URL, env or
 * header asks again. Variables (`${input:…}`, `${env:…}`) are filled in only after this.
 */
export class McpConsent {
  constructor(
    private readonly memory: ConsentMemory,
    private readonly ask: (server: WorkspaceMcpServer) => Promise<ConsentAnswer>,
  ) {}

  /** Whether the server may be given to agents; asks when this definition has no answer yet. */
  async allowed(server: WorkspaceMcpServer): Promise<boolean> {
    const key = consentKey(server);
    const known = this.decisions()[key];
    if (known !== undefined) {
      return known === 'allow';
    }
    const answer = await this.ask(server);
    if (answer !== undefined) {
      // Read again: another question may have been answered meanwhile.
      await this.memory.update(KEY, { ...this.decisions(), [key]: answer });
    }
    return answer === 'allow';
  }

  /** Forgets every answer for this workspace; returns how many there were. */
  async revokeAll(): Promise<number> {
    const count = Object.keys(this.decisions()).length;
    await this.memory.update(KEY, undefined);
    return count;
  }

  private decisions(): Record<string, 'allow' | 'deny'> {
    const raw = this.memory.get(KEY);
    if (typeof raw !== 'object' || raw === null) {
      return {};
    }
    return Object.fromEntries(
      Object.entries(raw as Record<string, unknown>).filter(
        (entry): entry is [string, 'allow' | 'deny'] => entry[1] === 'allow' || entry[1] === 'deny',
      ),
    );
  }
}

/** A hash of the server's name, source and definition (keys sorted, so reformatting the file changes nothing). */
export function consentKey(server: WorkspaceMcpServer): string {
  return createHash('sha256')
    .update(JSON.stringify([server.source, server.name, canonical(server.definition)]))
    .digest('hex');
}

function canonical(value: unknown, depth = 16): unknown {
  if (depth <= 0 || typeof value !== 'object' || value === null) {
    return value;
  }
  if (Array.isArray(value)) {
    return value.map((item) => canonical(item, depth - 1));
  }
  return Object.keys(value as Record<string, unknown>)
    .sort()
    .map((key) => [key, canonical((value as Record<string, unknown>)[key], depth - 1)]);
}

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
