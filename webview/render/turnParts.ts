import { el } from './dom';
import { appendToTurn, groupOn, NO_PARTS, type Group } from './turnGroup';

/**
 * A turn of many entries (an agent's long run of tool calls: hundreds in one turn) is built and evicted
 * in parts, as a long chat's turns are: the turn's section holds its first OWN_ENTRIES entries itself,
 * and every PART_ENTRIES after them go in a part of their own (`div.turn-part`, inside the section, before
 * its change card and footer) that LazyTurns builds as it nears view and evicts far from it. A chat whose
 * last turn holds 1,000 tool calls then opens with a few dozen of them built, not all.
 */
const OWN_ENTRIES = 30;
const PART_ENTRIES = 30;
/** Parts' orders lie between their turn's and the next group's (one more): this many fit. */
const PARTS_PER_ORDER = 1_000_000;
/**
 * A turn with parts is always laid out (transcript.css): skipped off screen, it would be sized at the
 * 400 px estimate until first shown, so LazyTurns would measure and evict it at that size, and a view
 * scrolled into it would be held at its top as it grew to its real, tens of thousands of pixels. Its
 * parts already keep its DOM small, and their placeholders are cheap to lay out.
 */
const LONG_TURN_CLASS = ' turn-long';

/** Entries of a group, built or not. */
function entryCount(group: Group): number {
  return group.views.length + (group.deferred?.length ?? 0);
}

/**
 * The group a new entry of `group` (built) goes in: the group itself, its last part, or undefined when
 * a new part is due. Replayed history is cut into groups of its own instead (continuesHistory).
 */
export function entryTarget(group: Group): Group | undefined {
  if (group.history || group.owner) {
    return group;
  }
  const last = group.parts.at(-1);
  if (!last) {
    return entryCount(group) < OWN_ENTRIES ? group : undefined;
  }
  return entryCount(last) < PART_ENTRIES ? last : undefined;
}

/** A new empty part after `owner`'s entries so far. */
export function addPart(owner: Group): Group {
  const element = el('div', 'turn-part');
  const order = owner.order + (owner.parts.length + 1) / PARTS_PER_ORDER;
  const part = groupOn(element, false, order, owner);
  appendToTurn(owner, element);
  if (owner.parts === NO_PARTS) {
    owner.parts = [];
    // Built (a part is added only to a built turn), so its class does not end with the placeholder's.
    if (!owner.element.className.includes(LONG_TURN_CLASS)) {
      owner.element.className += LONG_TURN_CLASS;
    }
  }
  owner.parts.push(part);
  return part;
}

/** The entry ids of a turn about to be built, as it holds them: its own, then each part's. */
export function cutIds(group: Group, ids: readonly string[]): { own: string[]; parts: string[][] } {
  if (group.history || group.owner) {
    return { own: [...ids], parts: [] };
  }
  const parts: string[][] = [];
  for (let at = OWN_ENTRIES; at < ids.length; at += PART_ENTRIES) {
    parts.push(ids.slice(at, at + PART_ENTRIES));
  }
  return { own: ids.slice(0, OWN_ENTRIES), parts };
}

/** All of a group's entry ids in order, built or not (its own, then its parts'), as an exact list. */
export function allEntryIds(group: Group): string[] {
  const own = group.views.map((view) => view.entryId);
  return own.concat(...group.parts.map((part) => part.deferred ?? part.views.map((view) => view.entryId)));
}
