import { el } from './dom';

/**
 * Says something to screen readers without moving focus: a polite live region, visually hidden, that is
 * in the page from the start (a region added together with its text is often not read).
 */
export class Announcer {
  readonly element = el('div', 'visually-hidden');

  constructor() {
    this.element.setAttribute('role', 'status');
    this.element.setAttribute('aria-live', 'polite');
  }

  announce(text: string): void {
    // Emptied first, so the same words said twice are read twice.
    this.element.textContent = '';
    requestAnimationFrame(() => {
      this.element.textContent = text;
    });
  }
}
