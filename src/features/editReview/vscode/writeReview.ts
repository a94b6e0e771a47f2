import * as z from 'zod/mini';
import type { Logger } from '../../../core/ports';
import { acpSetting } from '../../../vscode/settings';
import type { WriteReview } from '../../../vscode/workspaceFileSystem';
import type { VscodeEditReviews } from './vscodeEditReviews';

const ReviewModeSchema = z.catch(z.enum(['ask', 'auto']), 'ask');

/** `acpAgents.edits.review`: `ask` — every write shown as a diff, waiting for Keep/Undo; `auto` — written at once. */
export function editReviewMode(): 'ask' | 'auto' {
  return ReviewModeSchema.parse(acpSetting('edits.review'));
}

/**
 * The workspace file system's review of each agent write: asked in the diff editor (and the chat) while the
 * setting says `ask`, kept at once otherwise. Read at every write, so a changed setting applies to the next one.
 */
export function writeReview(reviews: VscodeEditReviews, logger: Logger, mode = editReviewMode): WriteReview {
  return async (filePath, current, proposed) => {
    if (mode() !== 'ask') {
      return 'keep';
    }
    const decision = await reviews.review(filePath, current, proposed);
    logger.info(`Edit review for ${filePath}: ${decision}`);
    return decision;
  };
}
