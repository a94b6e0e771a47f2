import { el, icon, iconButton } from './dom';

const MAX_ALERTS = 3;

/** Inline errors (from the host, or a message the view could not read), dismissible. */
export class Alerts {
  readonly element: HTMLElement;

  constructor() {
    this.element = el('div', 'alerts');
    this.element.setAttribute('role', 'status');
    this.element.setAttribute('aria-live', 'polite');
  }

  show(message: string, severity: 'error' | 'warning' = 'error'): void {
    // The same message again (Enter pressed twice while the agent works) replaces its copy, not stacks up.
    for (const existing of this.element.querySelectorAll('.alert-message')) {
      if (existing.textContent === message) {
        existing.parentElement?.remove();
      }
    }
    const alert = el('div', `alert alert-${severity}`, icon(severity), el('span', 'alert-message', message));
    alert.append(iconButton('close', 'Dismiss', () => alert.remove()));
    this.element.append(alert);
    while (this.element.childElementCount > MAX_ALERTS) {
      this.element.firstElementChild?.remove();
    }
  }
}
