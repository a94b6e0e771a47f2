import { DEMO_AGENT_ID, type AgentDefinition } from './agentSettings';

/** Which agents are offered, and which one a chat gets when it names none (or one no longer offered). */
export class AgentChoice {
  constructor(
    private readonly list: () => readonly AgentDefinition[],
    /** The agent to select first (`acpAgents.defaultAgent`), when it is offered. */
    private readonly preferred?: () => string | undefined,
  ) {}

  get offered(): readonly AgentDefinition[] {
    return this.list();
  }

  isOffered(agentId: string): boolean {
    return this.offered.some((agent) => agent.id === agentId);
  }

  defaultAgent(): AgentDefinition {
    const wanted = this.preferred?.();
    return (
      this.offered.find((agent) => agent.id === wanted || agent.label === wanted) ??
      (this.offered[0] as AgentDefinition)
    );
  }

  /** The definition of `agentId`; a chat whose agent is no longer configured falls back to the default (or throws). */
  definitionOr(agentId: string | undefined, strict = false): AgentDefinition {
    const found = this.offered.find((agent) => agent.id === agentId);
    if (!found && strict) {
      throw new Error(`Unknown agent ${agentId}`);
    }
    return found ?? this.defaultAgent();
  }

  /**
   * The agent for a new chat next to `current`: the same one while it is offered, else the default. The demo
   * agent stands in for "no agent yet": once a real agent is there, a new chat next to a demo chat gets it.
   */
  nextTo(currentAgentId: string | undefined): string {
    const fallback = this.defaultAgent().id;
    if (currentAgentId === DEMO_AGENT_ID && fallback !== DEMO_AGENT_ID) {
      return fallback;
    }
    return currentAgentId !== undefined && this.isOffered(currentAgentId) ? currentAgentId : fallback;
  }
}
