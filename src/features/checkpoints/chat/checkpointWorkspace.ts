import type { Disposable } from '../../../core/util/disposable';
import type { Thread } from '../../../core/thread/thread';
import type { CheckpointStore } from '../core/types';

/**
 * What the change review asks the workspace (the workspace service implements it, wired by the
 * composition root): the store for the folders that may be checkpointed now — none in Restricted Mode,
 * none of the home folder, never stored inside a workspace folder — and whether a new checkpoint may be
 * taken. Each rejects with the reason in the user's words ("the workspace is not trusted …").
 */
export interface CheckpointWorkspace {
  /** The store of this moment: opened again when folders are added or removed. */
  store(): Promise<CheckpointStore>;
  /**
   * The store, when a new checkpoint may be taken in it now: rejects when not (e.g. the storage is over its
   * cap). `stopped` while that is found out: no store is opened for it.
   */
  checkpointStore(stopped?: AbortSignal): Promise<CheckpointStore>;
  /** Trust was granted or the folders changed. */
  onDidChange(listener: () => void): Disposable;
  /** Every chat's running turn in this window, per folder: Undo and Restore ask before racing one. */
  readonly running: RunningTurnsRegistry;
}

/** The registry of running turns (the workspace service's `RunningTurns`). */
export interface RunningTurnsRegistry {
  /** Registers turn `turnId` of `thread` on `folders` until it ends (or the handle is disposed). */
  follow(thread: Thread, turnId: string, title: () => string, folders: readonly string[]): Disposable;
  /** The running turns of chats other than `chat` on any of `folders`, oldest first. */
  othersOn(chat: object, folders: Iterable<string>): Promise<readonly { readonly title: () => string }[]>;
  /** Resolves once this window's notes to the others are written or removed. */
  settled(): Promise<void>;
}
