import type { PermissionDecision, PermissionPrompt } from '../../../core/ports';
import type { PermissionOptionKind, ToolKind } from '../../../core/thread/threadTypes';

/** A remembered "always" answer: for this agent, tools of this kind are allowed (or rejected). */
export interface PermissionRule {
  readonly agentId: string;
  readonly toolKind: ToolKind;
  readonly decision: 'allow' | 'reject';
}

/** Where rules that outlive the session are kept (the workspace's storage in VS Code). */
export interface RuleStore {
  load(): readonly PermissionRule[];
  save(rules: readonly PermissionRule[]): Promise<void>;
}

export interface PermissionSettings {
  /** Answer read-only tool calls (`read`, `search`) with an allow option without asking. */
  readonly autoApproveReads: boolean;
  /** Keep "always" answers for the workspace, not only for this session. */
  readonly rememberInWorkspace: boolean;
}

/**
 * Decides permission prompts that need no human: remembered "always" answers per agent and tool
 * kind, and auto-approved reads. Users of other clients are worn out by prompts that "Always
 * allow" did not silence; here an always-answer is kept for the session and, when the setting
 * says so, for the workspace.
 */
export class PermissionRules {
  private readonly sessionRules: PermissionRule[] = [];

  constructor(
    private readonly settings: () => PermissionSettings,
    private readonly store: RuleStore,
  ) {}

  /** An answer without asking, or undefined when a person must decide. */
  decide(prompt: PermissionPrompt): { decision: PermissionDecision; reason: string } | undefined {
    const { agentId } = prompt;
    const kind = prompt.toolCall.toolKind;
    const rule = [...this.sessionRules, ...this.store.load()].find(
      (r) => r.agentId === agentId && r.toolKind === kind,
    );
    if (rule) {
      const option = pick(
        prompt,
        rule.decision === 'allow' ? ['allow_always', 'allow_once'] : ['reject_always', 'reject_once'],
      );
      if (option) {
        return {
          decision: { outcome: 'selected', optionId: option },
          reason: `remembered: always ${rule.decision} ${kind}`,
        };
      }
    }
    if (this.settings().autoApproveReads && (kind === 'read' || kind === 'search')) {
      const option = pick(prompt, ['allow_once', 'allow_always']);
      if (option) {
        return {
          decision: { outcome: 'selected', optionId: option },
          reason: `reads are auto-approved (${kind})`,
        };
      }
    }
    return undefined;
  }

  /** Remembers an "always" answer a person gave. */
  async remember(prompt: PermissionPrompt, decision: PermissionDecision): Promise<void> {
    if (decision.outcome !== 'selected') {
      return;
    }
    const kind = prompt.options.find((o) => o.optionId === decision.optionId)?.kind;
    if (kind !== 'allow_always' && kind !== 'reject_always') {
      return;
    }
    const agentId = prompt.agentId;
    const rule: PermissionRule = {
      agentId,
      toolKind: prompt.toolCall.toolKind,
      decision: kind === 'allow_always' ? 'allow' : 'reject',
    };
    const others = (rules: readonly PermissionRule[]) =>
      rules.filter((r) => r.agentId !== agentId || r.toolKind !== rule.toolKind);
    this.sessionRules.splice(0, this.sessionRules.length, ...others(this.sessionRules), rule);
    if (this.settings().rememberInWorkspace) {
      await this.store.save([...others(this.store.load()), rule]);
    }
  }

  /** The answers kept for the workspace. */
  workspaceRules(): readonly PermissionRule[] {
    return this.store.load();
  }

  /** Forgets every remembered answer (session and workspace). */
  async clear(): Promise<void> {
    this.sessionRules.splice(0);
    await this.store.save([]);
  }
}

function pick(prompt: PermissionPrompt, kinds: readonly PermissionOptionKind[]): string | undefined {
  for (const kind of kinds) {
    const option = prompt.options.find((o) => o.kind === kind);
    if (option) {
      return option.optionId;
    }
  }
  return undefined;
}
