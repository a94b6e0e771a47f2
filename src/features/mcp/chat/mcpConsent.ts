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
  const record = (typeof definition === 'object' && definition !== null ? definition : {}) as Record<
    string,
    unknown
  >;
  if (typeof record.url === 'string') {
    return `connects to ${record.url}`;
  }
  const args = Array.isArray(record.args) ? record.args.filter((a) => typeof a === 'string') : [];
  return `runs ${[String(record.command ?? '?'), ...args].join(' ')}`;
}
