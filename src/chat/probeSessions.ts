/** Where the record is kept: VS Code's `globalState` (an agent's sessions outlive the window). */
export interface ProbeSessionMemory {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

const KEY = 'acpAgents.probeSessions';
/** The newest sessions kept (each check opens one per agent): enough for any list an agent pages us. */
const MAX_KEPT = 200;

/**
 * The sessions the agent check (ACP: Check Agents) opened to see whether an agent is signed in. They are
 * ended where the agent can close or delete a session; one that cannot still lists them, and the chat
 * list leaves them out rather than show an "Untitled session" nobody started.
 */
export class ProbeSessions {
  constructor(private readonly memory: ProbeSessionMemory) {}

  /** Notes a session a check opened (kept across reloads; the oldest go past the bound). */
  remember(agentId: string, sessionId: string): Promise<void> {
    const kept = [
      ...this.kept().filter((key) => key !== keyOf(agentId, sessionId)),
      keyOf(agentId, sessionId),
    ];
    return Promise.resolve(this.memory.update(KEY, kept.slice(-MAX_KEPT)));
  }

  /** Whether `sessionId` of `agentId` is one a check opened. */
  has(agentId: string, sessionId: string): boolean {
    return this.kept().includes(keyOf(agentId, sessionId));
  }

  private kept(): string[] {
    const stored = this.memory.get(KEY);
    return Array.isArray(stored) ? stored.filter((key): key is string => typeof key === 'string') : [];
  }
}

function keyOf(agentId: string, sessionId: string): string {
  return `${agentId}\n${sessionId}`;
}
