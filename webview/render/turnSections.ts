import type { ThreadEntryMessage } from '../../src/protocol';
import { el } from './dom';
import { createGroup, type Group } from './turnGroup';

/** Turns per chunk of the transcript (see appendSection). */
const TURNS_PER_CHUNK = 32;

/**
 * Entries of no turn (a session the agent replayed: thousands of entries when it is long) are grouped
 * as turns are, so LazyTurns builds and evicts them a group at a time: a group starts at each user
 * message, and a long stretch without one (an agent's hour of tool calls) goes on in a group of its
 * own after this many entries.
 */
const HISTORY_GROUP_ENTRIES = 30;

/** Whether `entry`, of no turn, goes on in `last` (the transcript's last group) or starts a group. */
function continuesHistory(last: Group, entry: ThreadEntryMessage): boolean {
  if (!last.history) {
    return false;
  }
  const size = last.views.length + (last.deferred?.length ?? 0);
  return size === 0 || (entry.kind !== 'user' && size < HISTORY_GROUP_ENTRIES);
}

/**
 * The transcript's groups in document order: which group an entry or a turn goes in, and new groups
 * appended at the end of the transcript's content, in chunks.
 */
export class TurnSections {
  private readonly byTurn = new Map<string, Group>();
  private lastMade: Group | undefined;
  /** The chunk new groups go into (see appendSection). */
  private chunk: HTMLElement | undefined;

  constructor(
    private readonly content: HTMLElement,
    /** Called with each group made. */
    private readonly made: (group: Group) => void,
  ) {}

  /** The group made last: the end of the transcript. */
  get last(): Group | undefined {
    return this.lastMade;
  }

  /** The group of the turn with this id, if it has one. */
  turn(turnId: string): Group | undefined {
    return this.byTurn.get(turnId);
  }

  /** Every turn's group. */
  turns(): IterableIterator<Group> {
    return this.byTurn.values();
  }

  /** Forgets every group (the content was emptied). */
  clear(): void {
    this.byTurn.clear();
    this.lastMade = undefined;
    this.chunk = undefined;
  }

  /** The group `entry` goes in: its turn's, or for an entry of no turn the history group it continues. */
  of(entry: ThreadEntryMessage): Group {
    if (entry.turnId !== undefined) {
      return this.forTurn(entry.turnId);
    }
    const last = this.lastMade;
    if (last && continuesHistory(last, entry)) {
      return last;
    }
    return this.add(undefined, last?.history === true && entry.kind !== 'user');
  }

  /** The group of the turn with this id, made at the end when it has none yet. */
  forTurn(turnId: string): Group {
    return this.byTurn.get(turnId) ?? this.add(turnId, false);
  }

  private add(turnId: string | undefined, continued: boolean): Group {
    const group = createGroup(turnId, continued);
    this.made(group);
    if (turnId !== undefined) {
      this.byTurn.set(turnId, group);
    }
    this.appendSection(group.element);
    this.lastMade = group;
    return group;
  }

  /**
   * Turns go into chunks of TURNS_PER_CHUNK: a turn built, evicted or resized then costs the
   * browser's layout, pre-paint and paint a walk of its chunk's turns and of the chunks, not of
   * every turn of a long chat (2,000 placeholders as siblings cost a scrolled frame 6–8 ms).
   */
  private appendSection(element: HTMLElement): void {
    if (!this.chunk || this.chunk.childElementCount >= TURNS_PER_CHUNK) {
      this.chunk = el('div', 'turn-chunk');
      this.content.append(this.chunk);
    }
    this.chunk.append(element);
  }
}
