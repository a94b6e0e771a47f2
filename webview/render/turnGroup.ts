import type { ThreadEntryMessage, TurnMessage } from '../../src/protocol';
import type { ChangeCardView } from './checkpoints/changeCard';
import type { CheckpointSlots } from './checkpoints/checkpoint';
import { el, OptionalChild, setIdAttribute } from './dom';
import { MessageView, ThoughtView } from './message';
import { ToolCardView } from './toolCard';
import type { EntryView, RenderContext } from './types';

/**
 * Entries of one turn (or of replayed history), the files it changed and the turn's footer, as the
 * section's own children in that order: the card and the footer are made only when there is something
 * to show, so a short finished turn is its section and its messages.
 */
export interface Group extends CheckpointSlots {
  readonly element: HTMLElement;
  /**
   * The working indicator, a note or an error at the turn's end: made when there is one, let go when there is
   * none (`showFooter`), as most finished turns have none.
   */
  footer: OptionalChild | undefined;
  /** Made when the turn first changes a file: most turns never do. */
  changes?: ChangeCardView;
  /** Its entries' views, in order; NO_VIEWS until it has one (a turn not built, or evicted). */
  views: EntryView[];
  turn: TurnMessage | undefined;
  readonly history: boolean;
  /**
   * Entries of a group not built yet (a long chat opened from a snapshot): their views are made,
   * from the store's latest copy, once the group nears the visible part of the transcript.
   */
  deferred: string[] | undefined;
  /** Its content box's height when last evicted: the size it takes again, off screen, once rebuilt. */
  evictedContentHeight?: number;
  /** Increases in document order (groups are only ever appended): where a placeholder goes back. */
  readonly order: number;
  /**
   * A long turn's later entries, in parts of their own inside its section (turnParts.ts), in order;
   * NO_PARTS until it has one.
   */
  parts: Group[];
  /** For a part: the turn's group it belongs to. */
  readonly owner: Group | undefined;
}

let nextOrder = 0;

/**
 * The parts of every group that has none: shared, so a short turn holds no list of its own (frozen:
 * a part is never added to it).
 */
export const NO_PARTS: Group[] = Object.freeze([]) as unknown as Group[];

/**
 * The views of every group that has none (not built yet, or evicted far from view): shared, so such a turn holds
 * no list of its own (frozen: a group's first view gives it its own list, `addView`).
 */
export const NO_VIEWS: EntryView[] = Object.freeze([]) as unknown as EntryView[];

/**
 * An empty turn section, or a section of replayed history when `turnId` is undefined — `continued`
 * when it goes on from the history group before it, without a turn's separator.
 */
export function createGroup(turnId: string | undefined, continued = false): Group {
  const kind = turnId !== undefined ? '' : continued ? ' turn-history turn-continued' : ' turn-history';
  const element = el('section', `turn${kind}`);
  if (turnId !== undefined) {
    // Not through `dataset`: its wrapper would stay with every turn's section.
    setIdAttribute(element, 'data-turn-id', turnId);
  }
  return groupOn(element, turnId === undefined, nextOrder++, undefined);
}

/** A group on `element`; a part when `owner` is given. */
export function groupOn(
  element: HTMLElement,
  history: boolean,
  order: number,
  owner: Group | undefined,
): Group {
  // Every field from the start: fields added later would give each group a property array besides.
  return {
    element,
    footer: undefined,
    views: NO_VIEWS,
    turn: undefined,
    history,
    deferred: undefined,
    order,
    changes: undefined,
    evictedContentHeight: undefined,
    userMessage: undefined,
    checkpoint: undefined,
    restored: undefined,
    restoredAway: false,
    parts: NO_PARTS,
    owner,
  };
}

/** Adds an entry's element (or a notice) after the turn's entries, before its change card and footer. */
export function appendToTurn(group: Group, node: Node): void {
  group.element.insertBefore(node, group.changes?.element ?? group.footer?.element ?? null);
}

/** Adds an entry's view after the group's views (its element goes in with `appendToTurn`). */
export function addView(group: Group, view: EntryView): void {
  if (group.views === NO_VIEWS) {
    group.views = [view];
  } else {
    group.views.push(view);
  }
}

/** Shows `nodes` as the turn's footer: made when there are some, and let go with the last of them. */
export function showFooter(group: Group, nodes: Node[]): void {
  if (nodes.length > 0) {
    (group.footer ??= new OptionalChild('turn-footer', group.element)).show(nodes);
  } else if (group.footer) {
    group.footer.show(nodes);
    group.footer = undefined;
  }
}

/** The view of one entry, by its kind. */
export function createView(entry: ThreadEntryMessage, context: RenderContext): EntryView {
  switch (entry.kind) {
    case 'user':
    case 'agent':
      return new MessageView(entry, context);
    case 'thought':
      return new ThoughtView(entry, context);
    case 'tool_call':
      return new ToolCardView(entry, context);
    default: {
      const never: never = entry;
      throw new Error(`Unknown entry ${JSON.stringify(never)}`);
    }
  }
}

/**
 * Thinking stays open only while it is the newest entry of a running turn; a step the turn left pending
 * or running when it ended shows as ended (no spinner that turns for ever); a message or a thought of an ended
 * turn is shown as a render once of its text shows it, and let go by the markdown worker.
 */
export function refreshThoughts(group: Group): void {
  const running = group.turn?.status === 'running';
  const last = newestView(group);
  for (const part of [group, ...group.parts]) {
    for (const view of part.views) {
      if (view instanceof ThoughtView) {
        view.setActive(running && view === last);
        if (group.turn && !running) {
          view.streamEnded();
        }
      } else if (view instanceof ToolCardView && group.turn) {
        view.setTurnRunning(running); // entries of no known turn are left as they say
      } else if (view instanceof MessageView && group.turn && !running) {
        view.streamEnded();
      }
    }
  }
}

/** The newest entry's view of a group (of its last part when it has parts), if built. */
export function newestView(group: Group): EntryView | undefined {
  const last = group.parts.at(-1);
  return last ? last.views.at(-1) : group.views.at(-1);
}
