import type { ViewMessage } from '../../src/protocol';
import { el, icon } from './dom';

/**
 * "Restore checkpoint" under a user message: asks the host to put the workspace back to how it was
 * before the message (the host confirms with the user first). Disabled while a turn runs: the
 * agent could be writing the very files a restore puts back.
 */
export function restoreCheckpointRow(
  turnId: string,
  disabled: boolean,
  post: (message: ViewMessage) => boolean,
): HTMLElement {
  const action = el(
    'button',
    'restore-checkpoint link-button',
    icon('discard'),
    el('span', '', 'Restore checkpoint'),
  );
  action.type = 'button';
  action.title = disabled
    ? 'Put the workspace back to how it was before this message (wait for the agent to finish)'
    : 'Put the workspace back to how it was before this message';
  action.disabled = disabled;
  action.addEventListener('click', () => post({ type: 'restore_checkpoint', turnId }));
  const row = el('div', 'checkpoint-row', action);
  row.dataset.turnId = turnId;
  return row;
}

/** The divider above a message the workspace was restored to: what happened and when. */
export function restoredMark(restoredAt: number, now = new Date()): HTMLElement {
  const at = new Date(restoredAt);
  const time = el('time', 'restored-time', formatRestoreTime(at, now));
  time.dateTime = at.toISOString();
  time.title = at.toLocaleString();
  const mark = el(
    'div',
    'restored-mark',
    el(
      'span',
      'restored-label',
      icon('history'),
      el('span', '', 'Workspace restored to before this message'),
      ' · ',
      time,
    ),
  );
  mark.setAttribute('role', 'note');
  return mark;
}

/** The time alone for today, with the date on any other day. */
function formatRestoreTime(at: Date, now: Date): string {
  const time = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return at.toDateString() === now.toDateString()
    ? time
    : `${at.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })} ${time}`;
}
