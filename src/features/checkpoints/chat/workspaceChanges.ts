import type { Disposable } from '../../../core/disposable';
import type { TurnFileChange } from '../../../core/threadTypes';

/** A file put back as it was: its bytes, or `undefined` to delete it (the turn created it). */
export interface RestoredFile {
  readonly path: string;
  readonly bytes: Uint8Array | undefined;
}

/** What the change review needs from the editor; `src/features/checkpoints/vscode/vscodeWorkspaceChanges.ts` implements it. */
export interface WorkspaceChangesPort {
  /** The path as the user reads it: relative to its workspace folder. */
  relativePath(path: string): string;
  /** The file's content now as the user sees it (an open editor's unsaved text wins); undefined when missing. */
  current(path: string): Promise<Uint8Array | undefined>;
  /** Writes the files back through the editor, so open editors follow and the user can undo it. */
  restore(files: readonly RestoredFile[]): Promise<void>;
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
