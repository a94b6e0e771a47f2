import type { ChatStart } from '../../../chat/conversation';
import type { Thread } from '../../../core/thread/thread';
import type { ThreadSnapshot } from '../../../core/thread/threadTypes';

/** A fork's start (Edit and resend): the chat it forks, its title, and the transcript up to the edited message. */
export interface ForkStart {
  readonly of: string;
  readonly title: string;
  readonly thread: Thread;
  /** The origin's chosen folder (multi-root), kept by the fork. */
  readonly cwd?: string;
}

/** A new chat's start from a fork's: its transcript, and the journal's meta fields of a fork. */
export function chatStartOf(fork: ForkStart): ChatStart {
  return {
    thread: fork.thread,
    meta: { forkOf: fork.of, customTitle: fork.title, ...(fork.cwd === undefined ? {} : { cwd: fork.cwd }) },
  };
}

/**
 * The transcript before the user message `entryId`: its entries, and the turns they belong to — the turn
 * the message started, and every later one, are left out. The session state (modes, options) is kept.
 */
export function transcriptBefore(snapshot: ThreadSnapshot, entryId: string): ThreadSnapshot {
  const at = snapshot.entries.findIndex((entry) => entry.id === entryId);
  const entry = snapshot.entries[at];
  if (!entry || entry.kind !== 'user') {
    throw new Error('That message is no longer in the chat.');
  }
  const entries = snapshot.entries.slice(0, at);
  const kept = new Set(entries.map((e) => e.turnId));
  const turns = snapshot.turns.filter((turn) => kept.has(turn.id) && turn.id !== entry.turnId);
  return { entries, turns, state: snapshot.state };
}
