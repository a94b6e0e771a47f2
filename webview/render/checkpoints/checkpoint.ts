import type { TurnMessage, ViewMessage } from '../../../src/protocol';
import { el, icon, iconButton, setIdAttribute } from '../dom';

/**
 * Restore checkpoint, among a user message's actions (render/turnActions.ts): asks the host to put the
 * workspace back to how it was before the message (the host confirms with the user first). Disabled
 * while a turn runs: the agent could be writing the very files a restore puts back.
 */
export function restoreCheckpointButton(
  turnId: string,
  disabled: boolean,
  post: (message: ViewMessage) => boolean,
): HTMLButtonElement {
  const action = iconButton('discard', 'Restore checkpoint', () =>
    post({ type: 'restore_checkpoint', turnId }),
  );
  action.classList.add('restore-checkpoint');
  setRestoreDisabled(action, disabled);
  return action;
}

/** Disables Restore checkpoint while a turn runs, or enables it again; its tooltip says which. */
export function setRestoreDisabled(action: HTMLButtonElement, disabled: boolean): void {
  action.disabled = disabled;
  action.title = disabled
    ? 'Restore checkpoint: put the workspace back to how it was before this message (wait for the agent to finish)'
    : 'Restore checkpoint: put the workspace back to how it was before this message';
}

/** Whether a turn offers Restore checkpoint: it has one and has ended. */
export function restorable(turn: TurnMessage | undefined): boolean {
  return turn?.checkpointId !== undefined && turn.status !== 'running';
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
  /** The message that started the turn: its actions (Restore checkpoint) and a checkpoint problem go with it. */
  userMessage?: HTMLElement;
  /** Why the turn has no checkpoint, under its message, with what it was built from. */
  checkpoint?: { readonly element: HTMLElement; readonly key: string };
  /** The "Workspace restored" divider above the turn, with the time it shows. */
  restored?: { readonly element: HTMLElement; readonly at: number };
  /** Whether the section is marked `restored-away` (a restore undid the turn). */
  restoredAway: boolean;
}

/**
 * Why a turn has no checkpoint under its message, the "Workspace restored" divider above each turn
 * restored to, and the mark on every turn a restore undid: one that started before a restore to it
 * or to an earlier turn. Only what changed is touched. (Restore checkpoint itself is one of the
 * message's actions, made when they are shown: render/turnActions.ts.)
 */
export function refreshCheckpoints(
  turns: readonly TurnMessage[],
  slotsOf: (turnId: string) => CheckpointSlots | undefined,
): void {
  let latestRestore = -Infinity;
  for (const turn of turns) {
    const slots = slotsOf(turn.id);
    if (!slots) {
      continue;
    }
    latestRestore = Math.max(latestRestore, turn.restoredAt ?? -Infinity);
    const away = turn.startedAt <= latestRestore;
    // Every turn is walked at each turn's start and end: the DOM only where the mark changes.
    if (slots.restoredAway !== away) {
      slots.restoredAway = away;
      slots.element.classList.toggle('restored-away', away);
    }
    refreshRestoredMark(slots, turn.restoredAt);
    refreshProblem(slots, turn);
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

/**
 * Under the turn's message: why it has no checkpoint, or, for one taken late, what that means (the note
 * stays while Restore checkpoint is among the message's actions: it goes back to how files were then).
 */
function refreshProblem(slots: CheckpointSlots, turn: TurnMessage): void {
  const problem = turn.checkpointProblem;
  const late = turn.checkpointId !== undefined;
  const message = problem !== undefined ? slots.userMessage : undefined;
  const key = message ? `${late ? 'late' : 'problem'}:${problem}` : '';
  if ((slots.checkpoint?.key ?? '') === key) {
    return;
  }
  slots.checkpoint?.element.remove();
  slots.checkpoint = undefined;
  if (message && problem !== undefined) {
    const element = checkpointProblemRow(turn.id, problem, late);
    message.after(element);
    slots.checkpoint = { element, key };
  }
}

/**
 * In place of Restore checkpoint: why this turn has none (its changes cannot be listed or undone); or
 * (`late`) that its checkpoint was taken late.
 */
function checkpointProblemRow(turnId: string, problem: string, late: boolean): HTMLElement {
  const row = el(
    'div',
    `checkpoint-row checkpoint-problem${late ? ' checkpoint-late' : ''}`,
    icon('warning'),
    el('span', '', problem),
  );
  row.setAttribute('role', 'note');
  setIdAttribute(row, 'data-turn-id', turnId);
  return row;
}
