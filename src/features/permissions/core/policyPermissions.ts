import type { PermissionDecision, PermissionPort, PermissionPrompt } from '../../../core/ports';
import type { PermissionOptionKind } from '../../../core/thread/threadTypes';

/** Decides a permission prompt; may take its time. `undefined` means "never answer" (wait for abort). */
export type PermissionPolicy = (
  prompt: PermissionPrompt,
) => PermissionDecision | undefined | Promise<PermissionDecision | undefined>;

/** Picks the first option of one of the given kinds, else cancels. */
export function chooseKind(...kinds: PermissionOptionKind[]): PermissionPolicy {
  return (prompt) => {
    for (const kind of kinds) {
      const option = prompt.options.find((o) => o.kind === kind);
      if (option) {
        return { outcome: 'selected', optionId: option.optionId };
      }
    }
    return { outcome: 'cancelled' };
  };
}

/**
 * The permission port driven by a policy object: how tests and headless tools answer. Records
 * every prompt it saw, so tests can assert what the agent asked.
 */
export class PolicyPermissions implements PermissionPort {
  readonly prompts: PermissionPrompt[] = [];

  constructor(public policy: PermissionPolicy) {}

  async request(prompt: PermissionPrompt, signal: AbortSignal): Promise<PermissionDecision> {
    this.prompts.push(prompt);
    const decision = await this.policy(prompt);
    if (decision) {
      return decision;
    }
    return new Promise<PermissionDecision>((resolve) => {
      const cancelled = (): void => resolve({ outcome: 'cancelled' });
      if (signal.aborted) {
        cancelled();
      } else {
        signal.addEventListener('abort', cancelled, { once: true });
      }
    });
  }
}
