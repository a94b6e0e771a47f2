import type { ChatContributionFactory } from '../../../chat/chatContribution';
import type { Disposable } from '../../../core/util/disposable';
import type { EditReview } from '../../../protocol';

/** File writes waiting for Keep or Undo, as the chat shows them (the diff editor's reviews in VS Code). */
export interface EditReviews {
  pending(): readonly EditReview[];
  readonly onDidChange: (listener: (reviews: readonly EditReview[]) => void) => Disposable;
  /** Returns false when the review was no longer pending. */
  answer(id: string, decision: 'keep' | 'undo' | { readonly partly: string }): boolean;
}

/**
 * The agent's file writes waiting for review, in the chat: one list for the window, shown in every view
 * and answered from any of them as from the diff editor.
 */
export function editReviewContribution(reviews: EditReviews): ChatContributionFactory {
  return ({ presenter }) => {
    const subscription = reviews.onDidChange((pending) =>
      presenter.postToAll({ type: 'edit_reviews', reviews: [...pending] }),
    );
    return {
      id: 'editReview',
      viewState: () => {
        const pending = reviews.pending();
        return pending.length > 0 ? { editReviews: [...pending] } : {};
      },
      viewMessages: {
        answer_review: ({ id, decision }) => {
          if (!reviews.answer(id, decision)) {
            throw new Error('That edit was already decided.');
          }
        },
      },
      dispose: () => subscription.dispose(),
    };
  };
}
