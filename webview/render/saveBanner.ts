import { el, icon } from './dom';

/**
 * "This chat is not being saved: <reason>" while the chat's journal cannot be written (a read-only
 * folder, a full disk, another window writing the chat). What the chat holds is retried; the
 * banner goes once it is written.
 */
export class SaveBanner {
  readonly element = el('div', 'save-banner');
  private shown: string | undefined;

  constructor() {
    this.element.hidden = true;
    this.element.setAttribute('role', 'alert');
  }

  update(problem: string | undefined): void {
    if (problem === this.shown) {
      return;
    }
    this.shown = problem;
    this.element.hidden = problem === undefined;
    this.element.replaceChildren(
      ...(problem === undefined ? [] : [icon('warning'), el('span', '', problem)]),
    );
  }
}
