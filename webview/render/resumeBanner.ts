import type { ErrorDetailsMessage } from '../../src/protocol';
import { button, el, icon } from './dom';
import { errorDetailsView } from './errorDetails';
import type { RenderContext } from './types';

/**
 * Shown when the chat's earlier agent session could not be taken up (after a reload or an update):
 * say so — never start a fresh session silently — and offer to start one that gets the transcript.
 */
export class ResumeBanner {
  readonly element = el('div', 'resume-banner');
  private shown: string | undefined;

  constructor(private readonly context: RenderContext) {
    this.element.hidden = true;
    this.element.setAttribute('role', 'alert');
  }

  /** `details`: the agent's error behind the problem, shown in a collapsed "Details" part. */
  update(problem: string | undefined, details?: ErrorDetailsMessage): void {
    if (problem === this.shown) {
      return;
    }
    this.shown = problem;
    this.element.hidden = problem === undefined;
    if (problem === undefined) {
      this.element.replaceChildren();
      return;
    }
    const detailsView = details ? errorDetailsView(details) : undefined;
    this.element.replaceChildren(
      el('div', 'error-title', icon('warning'), el('span', '', 'This chat’s session could not be resumed')),
      el('div', 'error-message', problem),
      ...(detailsView ? [detailsView] : []),
      el(
        'div',
        'error-actions',
        button('Start a new session', {
          icon: 'debug-restart',
          title: 'A new agent session that is given this transcript',
          onClick: () => this.context.post({ type: 'start_fresh' }),
        }),
      ),
    );
  }
}
