import type { EditReview, ViewMessage } from '../../../src/protocol';
import type { WorkspacePaths } from '../../workspacePaths';
import { button, el, icon } from '../dom';

/**
 * File writes the agent proposed and the user has not decided on yet (`acpAgents.edits.review`):
 * one row per file with Keep and Undo, and both for all files when there are several. The host
 * holds each write until it gets the answer.
 */
export class EditReviewsView {
  readonly element: HTMLElement;
  private readonly title = el('span', 'reviews-title');
  private readonly all = el('div', 'reviews-all');
  private readonly list = el('ul', 'reviews-items');
  private shown: readonly EditReview[] | undefined;
  private answered = new Set<string>();

  constructor(
    private readonly post: (message: ViewMessage) => boolean,
    private readonly paths: () => WorkspacePaths,
  ) {
    this.element = el(
      'div',
      'reviews',
      el('div', 'reviews-header', icon('diff'), this.title, this.all),
      this.list,
    );
    this.element.setAttribute('role', 'region');
    this.element.setAttribute('aria-label', 'Edits to review');
    this.element.hidden = true;
  }

  update(reviews: readonly EditReview[]): void {
    if (reviews === this.shown) {
      return;
    }
    this.shown = reviews;
    this.answered = new Set([...this.answered].filter((id) => reviews.some((review) => review.id === id)));
    this.element.hidden = reviews.length === 0;
    this.title.textContent = reviews.length === 1 ? '1 edit to review' : `${reviews.length} edits to review`;
    this.all.replaceChildren(
      ...(reviews.length > 1
        ? [
            button('Keep all', { icon: 'check-all', onClick: () => this.answerAll('keep') }),
            button('Undo all', { icon: 'discard', secondary: true, onClick: () => this.answerAll('undo') }),
          ]
        : []),
    );
    this.list.replaceChildren(...reviews.map((review) => this.row(review)));
  }

  private row(review: EditReview): HTMLElement {
    const path = el(
      'button',
      'review-path link-button',
      icon(review.isNew ? 'new-file' : 'file'),
      el('span', 'path-text', el('bdi', '', this.paths().relative(review.path))),
    );
    path.type = 'button';
    path.title = `Open ${review.path}`;
    path.addEventListener('click', () => this.post({ type: 'open_file', path: review.path }));
    const keep = button('Keep', {
      ariaLabel: `Keep the edit to ${review.path}`,
      onClick: () => this.answer(review.id, 'keep'),
    });
    const undo = button('Undo', {
      secondary: true,
      ariaLabel: `Undo the edit to ${review.path}`,
      onClick: () => this.answer(review.id, 'undo'),
    });
    const row = el(
      'li',
      'review-row',
      path,
      review.isNew ? el('span', 'diff-badge', 'New') : null,
      keep,
      undo,
    );
    row.dataset.reviewId = review.id;
    return row;
  }

  private answer(id: string, decision: 'keep' | 'undo'): void {
    if (this.answered.has(id)) {
      return;
    }
    this.answered.add(id);
    for (const control of this.list.querySelectorAll(`[data-review-id="${CSS.escape(id)}"] vscode-button`)) {
      control.setAttribute('disabled', '');
    }
    this.post({ type: 'answer_review', id, decision });
  }

  private answerAll(decision: 'keep' | 'undo'): void {
    for (const review of this.shown ?? []) {
      this.answer(review.id, decision);
    }
  }
}
