import type { Notice, SessionState, ThreadEntry, ThreadEvent, ThreadSnapshot, Turn } from './thread';

/*
 * The one place thread events change a thread. The core Thread applies every event it emits
 * here, the journal replays its lines here and the webview store applies the batches it receives
 * here: a snapshot, a replay and a view cannot disagree about what an event means.
 */

/**
 * A thread being built from events: entries and turns in order, each indexed by id. It is
 * mutable and belongs to one holder (a Thread, a journal replay, the webview store); the entries,
 * turns and state in it are values, replaced rather than changed.
 */
export interface ThreadModel {
  readonly entries: ThreadEntry[];
  /** Entry id → position in `entries`. */
  readonly entryIndex: Map<string, number>;
  readonly turns: Turn[];
  /** Turn id → position in `turns`. */
  readonly turnIndex: Map<string, number>;
  state: SessionState;
}

/** The entries streamed text is appended to (messages and thoughts, not tool calls). */
export type TextEntry = Extract<ThreadEntry, { readonly text: string }>;

/** What one event did to a model, for whoever keeps more than the model (render changes, damage counts). */
export type ThreadChange =
  | { readonly type: 'added'; readonly entry: ThreadEntry }
  /** An entry was replaced by a newer copy of itself. */
  | { readonly type: 'replaced'; readonly entry: ThreadEntry }
  /** `text` was appended to the entry (which is the entry after the append). */
  | { readonly type: 'appended'; readonly entry: TextEntry; readonly text: string }
  /**
   * An update or appended text came for an entry that was never added (the event adding it was
   * lost): the entry was added, built from what the event carries, rather than losing it.
   */
  | { readonly type: 'rebuilt'; readonly entry: ThreadEntry }
  /** A turn was added or replaced. */
  | { readonly type: 'turn'; readonly turn: Turn }
  | { readonly type: 'state'; readonly changed: keyof SessionState }
  /** Notices are announced, not kept: the model is unchanged. */
  | { readonly type: 'notice'; readonly notice: Notice }
  /** The event could not apply and changed nothing; `reason` says why. */
  | { readonly type: 'ignored'; readonly reason: string };

export const EMPTY_SESSION_STATE: SessionState = { configOptions: [], commands: [], plan: [] };

/** A model holding a snapshot (an empty thread without one). The snapshot itself is not changed. */
export function threadModelOf(snapshot?: ThreadSnapshot): ThreadModel {
  const model: ThreadModel = {
    entries: [],
    entryIndex: new Map(),
    turns: [],
    turnIndex: new Map(),
    state: snapshot?.state ?? EMPTY_SESSION_STATE,
  };
  for (const entry of snapshot?.entries ?? []) {
    putEntry(model, entry, 'added');
  }
  for (const turn of snapshot?.turns ?? []) {
    putTurn(model, turn);
  }
  return model;
}

/** A copy of the model as a snapshot: later events do not change it. */
export function snapshotOf(model: ThreadModel): ThreadSnapshot {
  return { entries: [...model.entries], turns: [...model.turns], state: model.state };
}

export function entryOf(model: ThreadModel, id: string): ThreadEntry | undefined {
  const index = model.entryIndex.get(id);
  return index === undefined ? undefined : model.entries[index];
}

export function turnOf(model: ThreadModel, id: string): Turn | undefined {
  const index = model.turnIndex.get(id);
  return index === undefined ? undefined : model.turns[index];
}

/**
 * Applies one event to the model and says what it changed. Entries and turns are matched by id:
 * an added entry whose id is known replaces it, an update or append for an unknown entry rebuilds
 * it, a turn event for an unknown turn adds the turn. Nothing is thrown and nothing known is lost.
 */
export function applyThreadEvent(model: ThreadModel, event: ThreadEvent): ThreadChange {
  switch (event.type) {
    case 'entry_added':
      return putEntry(model, event.entry, 'added');
    case 'entry_updated':
      // The update carries the whole entry: when the line adding it was lost, it is all there is.
      return putEntry(model, event.entry, 'rebuilt');
    case 'text_appended':
      return appendText(model, event.entryId, event.text);
    case 'state_updated':
      model.state = patchedState(model.state, event.changed, event.state);
      return { type: 'state', changed: event.changed };
    case 'notice':
      return { type: 'notice', notice: event.notice };
    case 'turn_started':
    case 'turn_ended':
    case 'turn_updated':
      putTurn(model, event.turn);
      return { type: 'turn', turn: event.turn };
    default: {
      // Events are parsed before they get here; a type the schema lacks cannot arrive.
      const unknown: never = event;
      return { type: 'ignored', reason: `unknown thread event ${JSON.stringify(unknown)}` };
    }
  }
}

function appendText(model: ThreadModel, entryId: string, text: string): ThreadChange {
  const index = model.entryIndex.get(entryId);
  if (index === undefined) {
    // Only the text is known: it was the agent's (appends come from streamed chunks).
    return putEntry(model, { kind: 'agent', id: entryId, text, attachments: [] }, 'rebuilt');
  }
  const entry = model.entries[index] as ThreadEntry;
  if (!('text' in entry)) {
    return { type: 'ignored', reason: `text appended to ${entry.kind} entry ${entryId}, which has no text` };
  }
  // A rope in V8: the whole text is only joined when something reads it.
  const appended: TextEntry = { ...entry, text: entry.text + text };
  model.entries[index] = appended;
  return { type: 'appended', entry: appended, text };
}

/**
 * Adds the entry (a change of type `typeIfNew`), or replaces the one with its id (`replaced`). The change
 * carries the entry as the model keeps it, so whoever holds on to it (a view) holds the model's copy.
 */
function putEntry(model: ThreadModel, entry: ThreadEntry, typeIfNew: 'added' | 'rebuilt'): ThreadChange {
  const kept = compactEntry(entry);
  const index = model.entryIndex.get(entry.id);
  if (index !== undefined) {
    model.entries[index] = kept;
    return { type: 'replaced', entry: kept };
  }
  model.entryIndex.set(entry.id, model.entries.length);
  model.entries.push(kept);
  return { type: typeIfNew, entry: kept };
}

/** The attachments of every message that has none: frozen, as every entry is a value never changed. */
const NO_ATTACHMENTS: readonly never[] = Object.freeze([]);

/**
 * The entry as a model keeps it — for as long as its chat is open, however far from view: the same fields,
 * each the object's own. zod's parse (the page's boundary, a journal read back) builds an object a field at a
 * time, and V8 gives such an object room for four fields of its own: a message's fifth (its turn id) went to a
 * property array besides. Made in one object literal it has none; and the empty attachments list nearly every
 * message has is one list for all.
 */
function compactEntry(entry: ThreadEntry): ThreadEntry {
  if (entry.kind === 'tool_call') {
    // Fewer than messages, of many shapes, and replaced while they run.
    return entry;
  }
  const attachments = entry.attachments.length === 0 ? NO_ATTACHMENTS : entry.attachments;
  const { kind, id, turnId, text } = entry;
  if (entry.truncated !== undefined || entry.messageId !== undefined) {
    // Rare (agents seldom send a message id): kept in its own shape, with the shared list.
    return { ...entry, attachments };
  }
  return turnId === undefined ? { kind, id, text, attachments } : { kind, id, turnId, text, attachments };
}

function putTurn(model: ThreadModel, turn: Turn): void {
  const index = model.turnIndex.get(turn.id);
  if (index !== undefined) {
    model.turns[index] = turn;
    return;
  }
  model.turnIndex.set(turn.id, model.turns.length);
  model.turns.push(turn);
}

/** `state` with the parts `patch` holds; the part named `changed` is cleared when the patch lacks it. */
function patchedState(
  state: SessionState,
  changed: keyof SessionState,
  patch: Partial<SessionState>,
): SessionState {
  const next: Record<string, unknown> = { ...state };
  for (const [key, value] of Object.entries(patch)) {
    if (value !== undefined) {
      next[key] = value;
    }
  }
  if (patch[changed] === undefined) {
    const empty = EMPTY_SESSION_STATE[changed];
    if (empty === undefined) {
      delete next[changed];
    } else {
      next[changed] = empty;
    }
  }
  return next as SessionState;
}
