import { createHash } from 'node:crypto';

/** Where decisions are kept: the workspace's own storage (VS Code's `workspaceState`). */
export interface ConsentMemory {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** The user's answer; undefined when the question was dismissed (then it is asked again next time). */
export type ConsentAnswer = 'allow' | 'deny' | undefined;

/** A program the workspace's own files define (an agent, an MCP server), as written there. */
export interface WorkspaceDefinition {
  readonly name: string;
  /** Where it is defined, for the question: `.vscode/mcp.json`, `workspace settings "acpAgents.agents"`, … */
  readonly source: string;
  /** The definition as written in the file (before any variable is filled in). */
  readonly definition: unknown;
}

/** The workspaceState key; named when it held MCP servers' answers alone, kept so earlier answers stay. */
const KEY = 'acpAgents.mcpConsent';

/**
 * The user's consent to the programs a workspace's own files define — its agents (`acpAgents.agents` in
 * its settings) and its MCP servers — as VS Code asks before a folder's automatic tasks run: trusting the
 * folder is not enough, the program itself is named and allowed once. The answer is kept per workspace,
 * keyed by a hash of the source, name and definition as written, so a changed command, argument, env,
 * URL or header asks again; a dismissed question is asked again next time.
 */
export class WorkspaceConsent {
  /** Questions on screen, by definition: a second caller waits for the same answer. */
  private readonly asking = new Map<string, Promise<ConsentAnswer>>();

  constructor(private readonly memory: ConsentMemory) {}

  /** Whether `item` may run; `ask` is asked when this definition has no answer yet. */
  async allowed(
    item: WorkspaceDefinition,
    ask: (item: WorkspaceDefinition) => Promise<ConsentAnswer>,
  ): Promise<boolean> {
    const key = consentKey(item);
    const known = this.decisions()[key];
    if (known !== undefined) {
      return known === 'allow';
    }
    let asking = this.asking.get(key);
    if (!asking) {
      asking = this.ask(key, item, ask);
      this.asking.set(key, asking);
    }
    return (await asking) === 'allow';
  }

  private async ask(
    key: string,
    item: WorkspaceDefinition,
    ask: (item: WorkspaceDefinition) => Promise<ConsentAnswer>,
  ): Promise<ConsentAnswer> {
    try {
      const answer = await ask(item);
      if (answer !== undefined) {
        // Read again: another question may have been answered meanwhile.
        await this.memory.update(KEY, { ...this.decisions(), [key]: answer });
      }
      return answer;
    } finally {
      this.asking.delete(key);
    }
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

/** A hash of the item's source, name and definition (keys sorted, so reformatting the file changes nothing). */
export function consentKey(item: WorkspaceDefinition): string {
  return createHash('sha256')
    .update(JSON.stringify([item.source, item.name, canonical(item.definition)]))
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
