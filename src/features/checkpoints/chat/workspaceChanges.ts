import type { Disposable } from '../../../core/util/disposable';
import type { TurnFileChange } from '../../../core/thread/threadTypes';

/** A file put back as it was: its bytes, or `undefined` to delete it (the turn created it). */
export interface RestoredFile {
  readonly path: string;
  readonly bytes: Uint8Array | undefined;
  /**
   * The name is now a link or a special file: that entry itself is removed first and the file
   * written anew — never written (or deleted) through the link.
   */
  readonly replace?: boolean;
}

/** A file that was not put back, and why, in the user's words. */
export interface RestoreFailure {
  readonly path: string;
  readonly reason: string;
}

/** What the change review needs from the editor; `src/features/checkpoints/vscode/vscodeWorkspaceChanges.ts` implements it. */
export interface WorkspaceChangesPort {
  /** The path as the user reads it: relative to its workspace folder. */
  relativePath(path: string): string;
  /** The file's content now as the user sees it (an open editor's unsaved text wins); undefined when missing. */
  current(path: string): Promise<Uint8Array | undefined>;
  /** Whether an open editor holds unsaved text of `path` (putting the file back would drop it). */
  unsaved(path: string): boolean;
  /** The workspace folder `path` is in (absolute), or undefined when it is in none. */
  folderOf(path: string): string | undefined;
  /**
   * Writes the files back through the editor, so open editors follow and the user can undo it. Every
   * file that can be written is; resolves with those that could not (none: all were).
   */
  restore(files: readonly RestoredFile[]): Promise<RestoreFailure[]>;
  /** One file's diff: as it was at `checkpointId` ↔ now. */
  openDiff(checkpointId: string, file: TurnFileChange): Promise<void>;
  /** Every file's diff in one multi-file diff editor. */
  openChanges(checkpointId: string, files: readonly TurnFileChange[], title: string): Promise<void>;
  /** Asks before something that overwrites the user's work; resolves whether to go ahead. */
  confirm(message: string, detail: string, action: string): Promise<boolean>;
  /** Calls `onChange` with the path of every file created, changed or deleted in the workspace. */
  watch(onChange: (path: string) => void): Disposable;
  /** A one-time message to the user (e.g. changes are only partly tracked). */
  inform(message: string): void;
}
