import type { AppliedFile } from '../../../../src/features/worktrees/core/applyPlan';
import { diskWriter } from '../../../../src/features/worktrees/core/applyToFolder';
import type { LeftoverWorktree, WorktreeUi } from '../../../../src/features/worktrees/chat/worktreeUi';

/** The worktree steps' dialogs with scripted answers; what was shown is recorded. */
export class ScriptedWorktreeUi implements WorktreeUi {
  /** The answer to the next `ask` (undefined: cancelled); the suggested value when unset. */
  answer: string | undefined | null = null;
  /** The choice of the next `confirm` (undefined: dismissed). */
  confirmChoice: string | undefined;
  /** The choice of notifications that offer it. */
  informChoice: (message: string, actions: readonly string[]) => string | undefined = () => undefined;
  readonly confirms: string[] = [];
  readonly informs: string[] = [];
  readonly conflicts: AppliedFile[][] = [];
  readonly windows: string[] = [];
  /** The agents the next `pickAgents` picks (undefined: cancelled); what it was offered is recorded. */
  agentsPicked: readonly string[] | undefined = [];
  readonly agentPickers: { offered: string[]; bounds: { min: number; max: number } }[] = [];
  readonly writer = diskWriter;

  async ask(_prompt: string, value: string): Promise<string | undefined> {
    return this.answer === null ? value : this.answer;
  }
  async confirm(message: string, detail: string): Promise<string | undefined> {
    this.confirms.push(`${message} ${detail}`);
    return this.confirmChoice;
  }
  async inform(message: string, actions: readonly string[] = []): Promise<string | undefined> {
    this.informs.push(message);
    return this.informChoice(message, actions);
  }
  async showApplied(): Promise<void> {}
  async openConflicts(files: readonly AppliedFile[]): Promise<void> {
    this.conflicts.push([...files]);
  }
  async showChanges(): Promise<void> {}
  async openWindow(folder: string): Promise<void> {
    this.windows.push(folder);
  }
  async pickAgents(
    agents: readonly { readonly id: string }[],
    bounds: { readonly min: number; readonly max: number },
  ): Promise<readonly string[] | undefined> {
    this.agentPickers.push({ offered: agents.map((agent) => agent.id), bounds: { ...bounds } });
    return this.agentsPicked;
  }
  async pickLeftovers(leftovers: readonly LeftoverWorktree[]): Promise<readonly LeftoverWorktree[]> {
    return leftovers;
  }
}
