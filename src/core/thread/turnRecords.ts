import type { ThreadEntry, ThreadSnapshot, Turn } from './threadTypes';

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

/** A saved thread as it is taken up again: what was still running or asked then was cut off (`reason`). */
export function takenUp(snapshot: ThreadSnapshot, reason: string): ThreadSnapshot {
  return {
    ...snapshot,
    entries: snapshot.entries.map(settledPermission),
    turns: snapshot.turns.map((turn) => cutOff(turn, reason)),
  };
}

/** A saved turn as it is taken up again: one still running then was cut off (`reason`) and ends interrupted. */
function cutOff(turn: Turn, reason: string): Turn {
  return turn.status === 'running'
    ? { ...turn, status: 'interrupted', error: { kind: 'process_exited', message: reason } }
    : turn;
}

/**
 * A saved entry as it is taken up again: a permission still asked then can no longer be answered (its request
 * went with the agent), so it reads as cancelled, as Stop leaves it.
 */
function settledPermission(entry: ThreadEntry): ThreadEntry {
  if (entry.kind !== 'tool_call' || entry.permission?.status !== 'pending') {
    return entry;
  }
  const { waiting: _waiting, ...permission } = entry.permission;
  return { ...entry, permission: { ...permission, status: 'cancelled' } };
}
