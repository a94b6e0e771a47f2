import type { TurnMessage } from '../../src/protocol';
import { el, icon } from './dom';
import { agentErrorView } from './errorView';
import type { RenderContext } from './types';

const STOP_NOTES: Partial<Record<NonNullable<TurnMessage['stopReason']>, string>> = {
  max_tokens: 'Stopped: the reply reached the maximum length.',
  max_turn_requests: 'Stopped: the agent reached its limit of requests for one turn.',
  refusal: 'The agent declined to continue.',
  cancelled: 'Cancelled',
};

/**
 * What a turn's end looks like: working indicator, a note, or the error with its actions (Retry
 * only on the latest turn: retrying sends the chat's last prompt).
 */
export function turnFooter(turn: TurnMessage, context: RenderContext, latest: boolean): Node[] {
  switch (turn.status) {
    case 'running': {
      const working = el('div', 'turn-working', icon('loading', true), el('span', '', 'Working…'));
      return [working];
    }
    case 'completed': {
      const note = turn.stopReason ? STOP_NOTES[turn.stopReason] : undefined;
      return note ? [el('div', 'note turn-note', icon('info'), note)] : [];
    }
    case 'cancelled':
      return [el('div', 'note turn-note turn-cancelled', icon('circle-slash'), 'Cancelled')];
    case 'failed':
    case 'interrupted': {
      const error = turn.error ?? { kind: turn.status, message: 'The turn ended unexpectedly.' };
      const kind =
        turn.status === 'interrupted' && error.kind !== 'process_exited' ? 'interrupted' : error.kind;
      return [
        agentErrorView(
          {
            ...error,
            kind,
            ...(turn.stderrTail ? { stderrTail: turn.stderrTail } : {}),
            ...(kind === 'auth_required' ? { authMethods: context.authMethods() } : {}),
            // After a sign-in the host sends the waiting prompt itself.
            retry: latest && kind !== 'auth_required',
          },
          context,
        ),
      ];
    }
    default: {
      const never: never = turn.status;
      return [el('div', 'note', String(never))];
    }
  }
}
