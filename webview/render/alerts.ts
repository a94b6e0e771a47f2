import type { ErrorDetailsMessage } from '../../src/protocol';
import { el, icon, iconButton } from './dom';
import { errorDetailsView } from './errorDetails';

const MAX_ALERTS = 3;

/** Inline errors (from the host, or a message the view could not read), dismissible. */
export class Alerts {
  readonly element: HTMLElement;

  constructor() {
    this.element = el('div', 'alerts');
    this.element.setAttribute('role', 'status');
    this.element.setAttribute('aria-live', 'polite');
  }

  /** Takes every alert away (what they said no longer holds). */
  clear(): void {
    this.element.replaceChildren();
  }

  /** `details`: the agent's error behind the message (its code and data), in a collapsed "Details" part. */
  show(message: string, severity: 'error' | 'warning' = 'error', details?: ErrorDetailsMessage): void {
    const body = el('div', 'alert-body', el('span', 'alert-message', message));
    const detailsView = details ? errorDetailsView(details) : undefined;
    if (detailsView) {
      body.append(detailsView);
    }
    const alert = el('div', `alert alert-${severity}`, icon(severity), body);
    alert.append(iconButton('close', 'Dismiss', () => alert.remove()));
    this.element.append(alert);
    while (this.element.childElementCount > MAX_ALERTS) {
      this.element.firstElementChild?.remove();
    }
  }
}
