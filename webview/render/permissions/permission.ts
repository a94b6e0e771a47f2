import type { PermissionOptionMessage } from '../../../src/protocol';
import { button, el, icon } from '../dom';
import type { RenderContext, ToolCallEntry } from '../types';

type Permission = NonNullable<ToolCallEntry['permission']>;

const OPTION_ICONS: Record<PermissionOptionMessage['kind'], string> = {
  allow_once: 'check',
  allow_always: 'check-all',
  reject_once: 'close',
  reject_always: 'circle-slash',
};

/**
 * A permission request inside its tool card: the agent's own options, in the agent's order, as
 * buttons; once answered, the choice (or "Cancelled"). Buttons lock after a click so a double
 * click cannot answer twice; they unlock if the host reports an error.
 */
export class PermissionView {
  readonly element = el('div', 'permission');
  private shown: string | undefined;
  private buttons: HTMLElement[] = [];

  constructor(
    private readonly context: RenderContext,
    private readonly title: () => string,
  ) {
    this.element.setAttribute('role', 'group');
  }

  /** Whether a request is waiting for the user. */
  get pending(): boolean {
    return this.shown?.startsWith('pending') ?? false;
  }

  update(permission: Permission | undefined): void {
    const key = permission
      ? `${permission.status}|${permission.key}|${permission.selectedOptionId ?? ''}|${permission.options.length}|${permission.waiting ?? 0}`
      : '';
    if (key === this.shown) {
      return;
    }
    const wasPending = this.pending;
    this.shown = key;
    this.buttons = [];
    this.element.hidden = !permission;
    if (!permission) {
      this.element.replaceChildren();
      return;
    }
    this.element.dataset.status = permission.status;
    if (permission.status === 'pending') {
      this.renderPending(permission);
      const first = this.buttons[0];
      if (!wasPending && first) {
        this.context.requestFocus(first);
      }
      return;
    }
    this.element.setAttribute('aria-label', 'Permission');
    if (permission.status === 'cancelled') {
      this.element.replaceChildren(el('div', 'permission-result', icon('circle-slash'), 'Cancelled'));
      return;
    }
    const chosen = permission.options.find((option) => option.optionId === permission.selectedOptionId);
    const allowed = chosen?.kind.startsWith('allow') ?? false;
    this.element.replaceChildren(
      el(
        'div',
        `permission-result ${allowed ? 'allowed' : 'rejected'}`,
        icon(chosen ? OPTION_ICONS[chosen.kind] : 'question'),
        chosen ? chosen.name : `Answered (${permission.selectedOptionId ?? 'unknown option'})`,
      ),
    );
  }

  /** The host could not take the answer: let the user try again. */
  unlock(): void {
    for (const element of this.buttons) {
      element.removeAttribute('disabled');
    }
  }

  private renderPending(permission: Permission): void {
    this.element.setAttribute('aria-label', `Permission needed: ${this.title()}`);
    const firstAllow = permission.options.find((option) => option.kind === 'allow_once')
      ? 'allow_once'
      : permission.options.find((option) => option.kind === 'allow_always')?.kind;
    this.buttons = permission.options.map((option) =>
      button(option.name, {
        icon: OPTION_ICONS[option.kind],
        secondary: option.kind !== firstAllow,
        onClick: () => this.answer(permission.key, option.optionId),
      }),
    );
    for (const [index, option] of permission.options.entries()) {
      this.buttons[index]?.setAttribute('data-option-kind', option.kind);
    }
    const more = permission.waiting ?? 0;
    this.element.replaceChildren(
      el(
        'div',
        'permission-prompt',
        icon('shield'),
        el('span', '', 'Allow this action?'),
        // The rest of the session's requests wait their turn: one is shown at a time.
        ...(more > 0 ? [el('span', 'permission-waiting', `${more} more request${more === 1 ? '' : 's'}`)] : []),
      ),
      el('div', 'permission-buttons', ...this.buttons),
    );
  }

  private answer(key: string, optionId: string): void {
    for (const element of this.buttons) {
      element.setAttribute('disabled', '');
    }
    if (!this.context.post({ type: 'answer_permission', key, optionId })) {
      this.unlock();
    }
  }
}
