import type { ThreadEntryMessage, ThreadEventMessage, ThreadSnapshotMessage } from '../src/protocol';

/*
 * The page keeps every message of a chat for as long as the chat is open (a turn far from view is its data
 * alone), so its copies are made as small as V8 makes an object: zod's parse builds an object a field at a
 * time, and V8 gives such an object room for four fields of its own — a message's fifth and on (its turn id)
 * go to a property array besides. Made in one object literal, every field is the object's own; and an empty
 * attachments list, which nearly every message has, is one list shared by all.
 */

/** The attachments of every message that has none: frozen, as every entry is a value never changed. */
const NO_ATTACHMENTS: readonly never[] = Object.freeze([]);

/** The entry as the page keeps it: the same fields, each its own, in one object. */
export function compactEntry(entry: ThreadEntryMessage): ThreadEntryMessage {
  if (entry.kind === 'tool_call') {
    // Fewer than messages, of many shapes, and replaced while they run.
    return entry;
  }
  const attachments = entry.attachments.length === 0 ? NO_ATTACHMENTS : entry.attachments;
  const { kind, id, turnId, text } = entry;
  if (entry.truncated !== undefined || entry.messageId !== undefined) {
    // Rare (agents seldom send a message id): kept as parsed, with the shared list.
    return { ...entry, attachments };
  }
  return turnId === undefined ? { kind, id, text, attachments } : { kind, id, turnId, text, attachments };
}

/** The event, with the entry it carries as the page keeps it. */
export function compactEvent(event: ThreadEventMessage): ThreadEventMessage {
  return event.type === 'entry_added' || event.type === 'entry_updated'
    ? { ...event, entry: compactEntry(event.entry) }
    : event;
}

/** The snapshot, with its entries as the page keeps them. */
export function compactSnapshot(snapshot: ThreadSnapshotMessage): ThreadSnapshotMessage {
  return { ...snapshot, entries: snapshot.entries.map(compactEntry) };
}
