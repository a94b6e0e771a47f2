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
    const alert = el('div', `alert alert-${severity}`, icon(severity), el('span', 'alert-message', message));
    alert.append(iconButton('close', 'Dismiss', () => alert.remove()));
    this.element.append(alert);
    while (this.element.childElementCount > MAX_ALERTS) {
      this.element.firstElementChild?.remove();
    }
  }
}
