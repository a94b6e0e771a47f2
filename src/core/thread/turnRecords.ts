import type { Turn } from './threadTypes';

/** The number in a generated id (`e12`, `t3`), 0 when there is none. */
export function numberOf(id: string): number {
  const match = /(\d+)$/.exec(id);
  return match ? Number(match[1]) : 0;
}

/** What a turn keeps when it ends: set around the agent's answer, not by it. */
export function carriedOver(
  turn: Turn,
): Pick<Turn, 'checkpointId' | 'checkpointProblem' | 'changes' | 'restoredAt'> {
  return {
    ...(turn.checkpointId !== undefined ? { checkpointId: turn.checkpointId } : {}),
    ...(turn.checkpointProblem !== undefined ? { checkpointProblem: turn.checkpointProblem } : {}),
    ...(turn.changes !== undefined ? { changes: turn.changes } : {}),
    ...(turn.restoredAt !== undefined ? { restoredAt: turn.restoredAt } : {}),
  };
}

/** A saved turn as it is taken up again: one still running then was cut off (`reason`) and ends interrupted. */
export function cutOff(turn: Turn, reason: string): Turn {
  return turn.status === 'running'
    ? { ...turn, status: 'interrupted', error: { kind: 'process_exited', message: reason } }
    : turn;
}
