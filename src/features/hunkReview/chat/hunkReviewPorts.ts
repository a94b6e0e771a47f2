import type { Thread } from '../../../core/thread/thread';
import type { Disposable } from '../../../core/util/disposable';

/** Part of a file's change undone: the bytes to write, the content they were cut from, the card's counts. */
export interface HunkUndo {
  readonly bytes: Uint8Array;
  readonly from: Uint8Array;
  readonly counts: { readonly added: number; readonly removed: number };
}

/**
 * What the hunk review needs of a turn's change card and its checkpoint — the checkpoints feature's change
 * review fits it as it is; the composition root (src/chatFeatures.ts) passes it in. This feature never
 * writes a file itself.
 */
export interface TurnChangesPort {
  /** `path`'s bytes at checkpoint `checkpointId` (undefined: it did not exist). */
  read(checkpointId: string, path: string): Promise<Uint8Array | undefined>;
  /** Writes `undo.bytes` under the rules of a file's Undo, through its writer; resolves whether it did. */
  undoPart(thread: Thread, turnId: string, path: string, undo: HunkUndo): Promise<boolean>;
  /** Notes on the card that one change (`key`, `hunkKey`) of `path` was kept: it stays kept after a reload. */
  keepPart(thread: Thread, turnId: string, path: string, key: string): void;
  /** The card's Keep or Undo of the whole file, or its diff (before the turn ↔ now). */
  act(thread: Thread, turnId: string, action: 'keep' | 'undo' | 'diff', path: string): Promise<void>;
}

/** A file's content now as the user sees it (an editor's unsaved text wins); undefined when missing. */
export type CurrentContent = (path: string) => Promise<Uint8Array | undefined>;

/** A client write waiting in the edit review: the file's text when it was proposed (null: new) and the text proposed. */
export interface ProposedWrite {
  readonly id: string;
  readonly path: string;
  readonly current: string | null;
  readonly proposed: string;
}

/** What the part of a proposed write the user decided on becomes: all of it, none, or the text to write. */
export type ProposedWriteDecision = 'keep' | 'undo' | { readonly partly: string };

/**
 * What the hunk review needs of the edit review, which owns the writes waiting and their one decision (the
 * composition root passes it in): the hunk review only adds a way to decide one change at a time.
 */
export interface ProposedWritesPort {
  writes(): readonly ProposedWrite[];
  readonly onDidChange: (listener: () => void) => Disposable;
  /** The edit review's answer to write `id`; false when it no longer waits. */
  settle(id: string, decision: ProposedWriteDecision): boolean;
}
