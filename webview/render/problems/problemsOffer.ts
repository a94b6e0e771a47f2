import type { ProblemsOfferMessage, ViewMessage } from '../../../src/protocol';
import { button, el, icon } from '../dom';

/** How many problems are listed under the offer; the prompt carries them all. */
const SHOWN = 5;

/**
 * "Fix N new problems": after a turn that changed files, the errors and warnings that appeared in
 * them (once the diagnostics settled). Fixing sends them to the agent as the next prompt.
 */
export class ProblemsOfferView {
  readonly element: HTMLElement;
  private readonly title = el('span', 'problems-title');
  private readonly list = el('ul', 'problems-items');
  private readonly fix: HTMLElement;
  private shown: ProblemsOfferMessage | undefined;

  constructor(private readonly post: (message: ViewMessage) => boolean) {
    this.fix = button('Fix', { icon: 'wand', onClick: () => this.takeUp() });
    const dismiss = button('Dismiss', {
      secondary: true,
      ariaLabel: 'Dismiss the new problems',
      onClick: () => this.post({ type: 'dismiss_problems' }),
    });
    this.element = el(
      'div',
      'problems-offer',
      el(
        'div',
        'problems-header',
        icon('warning'),
        this.title,
        el('div', 'problems-actions', this.fix, dismiss),
      ),
      this.list,
    );
    this.element.setAttribute('role', 'region');
    this.element.setAttribute('aria-label', 'New problems');
    this.element.hidden = true;
  }

  update(offer: ProblemsOfferMessage | undefined): void {
    if (offer === this.shown) {
      return;
    }
    this.shown = offer;
    this.element.hidden = offer === undefined;
    if (!offer) {
      return;
    }
    const count = offer.problems.length;
    const noun = count === 1 ? 'problem' : 'problems';
    this.title.textContent = 'New in the changed files';
    this.fix.textContent = `Fix ${count} new ${noun}`;
    this.fix.removeAttribute('disabled');
    const rows = offer.problems.slice(0, SHOWN).map((problem) => {
      const where = el('button', 'link-button problem-path', `${problem.path}:${problem.line}`);
      where.type = 'button';
      where.title = `Open ${problem.path} at line ${problem.line}`;
      where.addEventListener('click', () =>
        this.post({ type: 'open_file', path: problem.path, line: problem.line }),
      );
      return el(
        'li',
        `problem-row problem-${problem.severity}`,
        icon(problem.severity === 'error' ? 'error' : 'warning'),
        where,
        el('span', 'problem-message', problem.message),
        problem.source ? el('span', 'problem-source', problem.source) : null,
      );
    });
    if (count > SHOWN) {
      rows.push(el('li', 'problem-more', `and ${count - SHOWN} more`));
    }
    this.list.replaceChildren(...rows);
  }

  private takeUp(): void {
    if (!this.shown) {
      return;
    }
    this.fix.setAttribute('disabled', '');
    this.post({ type: 'fix_problems', turnId: this.shown.turnId });
  }
}
