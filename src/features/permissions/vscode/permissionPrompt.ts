import type { PermissionRules } from '../core/permissionRules';
import type { Logger, PermissionDecision, PermissionPort, PermissionPrompt } from '../../../core/ports';
import type { UserPrompts } from '../../../vscode/userPrompts';
import { workspaceRelative, workspaceRelativeText } from '../../../vscode/workspacePaths';

const SHOW_DIFF = 'Show diff';

export interface PermissionSurfaces {
  /** Whether a view showing the chat that asks is on screen: then the request is answered inline there. */
  readonly chatVisible: (prompt: PermissionPrompt) => boolean;
  /** `acpAgents.permissions.ask`: `auto` (inline when the chat is visible, else a dialog), or always one of them. */
  readonly where: () => 'auto' | 'modal' | 'inline';
  /** Brings the chat that asks on screen (instead of chaining dialogs for a hidden chat). */
  readonly revealChat: (prompt: PermissionPrompt) => void;
  /** Opens a diff of a proposed edit for a look before deciding. */
  readonly showDiff: (path: string, oldText: string | null, newText: string) => Promise<void>;
}

/**
 * Answers `session/request_permission`: remembered "always" answers and auto-approved reads go
 * through without a question; otherwise inline in the chat when it is visible, else a modal
 * dialog with the agent's own options (and "Show diff" for an edit) — for a lone request: when
 * several queue for a hidden chat, the chat is shown instead of one dialog after another. Dismissing the dialog
 * rejects, so the agent never hangs on a prompt nobody sees.
 */
export class VsCodePermissions implements PermissionPort {
  constructor(
    private readonly rules: PermissionRules,
    private readonly prompts: UserPrompts,
    private readonly surfaces: PermissionSurfaces,
    private readonly log: Logger,
  ) {}

  async request(prompt: PermissionPrompt, signal: AbortSignal): Promise<PermissionDecision> {
    const automatic = this.rules.decide(prompt);
    if (automatic) {
      this.log.info(
        `Permission for "${prompt.toolCall.title}" answered automatically (${automatic.reason}).`,
      );
      return automatic.decision;
    }
    const where = this.surfaces.where();
    const visible = this.surfaces.chatVisible(prompt);
    // Several requests for a hidden chat: show the chat with its queue, never one dialog after another.
    const several = prompt.following === true || (prompt.waiting ?? 0) > 0;
    if (where === 'auto' && !visible && several) {
      this.surfaces.revealChat(prompt);
    }
    if (where === 'inline' || (where === 'auto' && (visible || several))) {
      // Answered by the inline card (AgentSession.answerPermission); settle only if abandoned.
      return new Promise((resolve) =>
        signal.addEventListener('abort', () => resolve({ outcome: 'cancelled' }), { once: true }),
      );
    }
    return this.askModal(prompt, signal);
  }

  /** Remembers a person's "always" answer, however it was given. */
  settled(prompt: PermissionPrompt, decision: PermissionDecision): void {
    this.rules
      .remember(prompt, decision)
      .catch((error: unknown) => this.log.error(`Could not remember a permission: ${String(error)}`));
  }

  private async askModal(prompt: PermissionPrompt, signal: AbortSignal): Promise<PermissionDecision> {
    const diff = prompt.toolCall.content.find((content) => content.type === 'diff');
    const labels = prompt.options.map((option) => option.name);
    const detail = [
      ...prompt.toolCall.locations.map(
        (location) => `${workspaceRelative(location.path)}${location.line ? `:${location.line}` : ''}`,
      ),
      diff?.type === 'diff' ? `Edits ${workspaceRelative(diff.path)}` : undefined,
    ]
      .filter((line): line is string => line !== undefined)
      .join('\n');
    for (;;) {
      if (signal.aborted) {
        return { outcome: 'cancelled' };
      }
      const choice = await this.prompts.modal(
        `The agent asks permission: ${workspaceRelativeText(prompt.toolCall.title)}`,
        detail || undefined,
        diff ? [...labels, SHOW_DIFF] : labels,
      );
      if (choice === SHOW_DIFF && diff?.type === 'diff') {
        await this.surfaces.showDiff(diff.path, diff.oldText, diff.newText);
        continue;
      }
      const option = prompt.options.find((o) => o.name === choice);
      if (option) {
        return { outcome: 'selected', optionId: option.optionId };
      }
      // Dismissed: reject rather than leave the agent waiting.
      const reject =
        prompt.options.find((o) => o.kind === 'reject_once') ??
        prompt.options.find((o) => o.kind === 'reject_always');
      return reject ? { outcome: 'selected', optionId: reject.optionId } : { outcome: 'cancelled' };
    }
  }
}
