import type { TurnMessage, ViewMessage } from '../../../src/protocol';
import { el, icon } from '../dom';

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

/** What a turn's group in the transcript holds for checkpoints. */
export interface CheckpointSlots {
  /** The turn's section. */
  readonly element: HTMLElement;
  /** The message that started the turn: "Restore checkpoint" sits under it. */
  userMessage?: HTMLElement;
  /** The Restore checkpoint row, with what it was built from. */
  checkpoint?: { readonly element: HTMLElement; readonly key: string };
  /** The "Workspace restored" divider above the turn, with the time it shows. */
  restored?: { readonly element: HTMLElement; readonly at: number };
}

/**
 * Restore checkpoint under each finished turn's message (disabled while any turn runs), the
 * "Workspace restored" divider above each turn restored to, and the mark on every turn a restore
 * undid: one that started before a restore to it or to an earlier turn. Only what changed is
 * touched.
 */
export function refreshCheckpoints(
  turns: readonly TurnMessage[],
  slotsOf: (turnId: string) => CheckpointSlots | undefined,
  options: { readonly anyRunning: boolean; readonly post: (message: ViewMessage) => boolean },
): void {
  let latestRestore = -Infinity;
  for (const turn of turns) {
    const slots = slotsOf(turn.id);
    if (!slots) {
      continue;
    }
    latestRestore = Math.max(latestRestore, turn.restoredAt ?? -Infinity);
    slots.element.classList.toggle('restored-away', turn.startedAt <= latestRestore);
    refreshRestoredMark(slots, turn.restoredAt);
    refreshRestoreAction(slots, turn, options.anyRunning, options.post);
  }
}

function refreshRestoredMark(slots: CheckpointSlots, restoredAt: number | undefined): void {
  if (slots.restored?.at === restoredAt) {
    return;
  }
  slots.restored?.element.remove();
  slots.restored = undefined;
  if (restoredAt !== undefined) {
    const element = restoredMark(restoredAt);
    slots.element.before(element);
    slots.restored = { element, at: restoredAt };
  }
}

function refreshRestoreAction(
  slots: CheckpointSlots,
  turn: TurnMessage,
  anyRunning: boolean,
  post: (message: ViewMessage) => boolean,
): void {
  const note = turn.checkpointProblem;
  const restorable = turn.checkpointId !== undefined && turn.status !== 'running';
  const message = restorable || note !== undefined ? slots.userMessage : undefined;
  const key = !message ? '' : `${restorable ? `${turn.checkpointId}:${anyRunning}` : ''}|${note ?? ''}`;
  if ((slots.checkpoint?.key ?? '') === key) {
    return;
  }
  slots.checkpoint?.element.remove();
  slots.checkpoint = undefined;
  if (message) {
    const element = restorable
      ? restoreCheckpointRow(turn.id, anyRunning, post)
      : checkpointProblemRow(turn.id, note ?? '');
    if (restorable && note !== undefined) {
      // Taken late: Restore goes back to how files were then, and the note says so beside it.
      element.append(checkpointNote(note));
    }
    message.after(element);
    slots.checkpoint = { element, key };
  }
}

/**
 * In place of Restore checkpoint: why this turn has none (its changes cannot be listed or undone), or,
 * while it runs, what is wrong with the one it has.
 */
function checkpointProblemRow(turnId: string, problem: string): HTMLElement {
  const row = el('div', 'checkpoint-row checkpoint-problem', icon('warning'), el('span', '', problem));
  row.setAttribute('role', 'note');
  row.dataset.turnId = turnId;
  return row;
}

/** Under Restore checkpoint: what is wrong with the checkpoint (taken late, while the turn ran). */
function checkpointNote(text: string): HTMLElement {
  const note = el('span', 'checkpoint-problem checkpoint-late', icon('warning'), el('span', '', text));
  note.setAttribute('role', 'note');
  return note;
}
