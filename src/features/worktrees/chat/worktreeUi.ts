import type { TreeFileChange } from '../../../core/git/treeDiff';
import type { AppliedFile } from '../core/applyPlan';
import type { FolderWriter } from '../core/applyToFolder';
import type { WorktreeRecord } from '../core/worktreeRecords';

/** A worktree left without a chat, as the cleanup lists it. */
export interface LeftoverWorktree {
  readonly folder: string;
  readonly branch: string;
  /** Its record, when a chat that is gone had one (else git alone knows it). */
  readonly record?: WorktreeRecord;
  /** Without a record: the work tree of the repository git lists it in. */
  readonly origin?: { readonly root: string; readonly gitDir: string };
}

/**
 * What the worktree steps need of the editor; `../vscode/vscodeWorktreeUi.ts` implements it with VS
 * Code's dialogs, editors and windows, tests with scripted answers.
 */
export interface WorktreeUi {
  /** Asks for a text (a worktree's name, a commit message); undefined: cancelled. */
  ask(prompt: string, value: string, validate?: (text: string) => string | undefined): Promise<string | undefined>;
  /** A modal question with `actions`; the one chosen, or undefined (dismissed). */
  confirm(message: string, detail: string, actions: readonly string[]): Promise<string | undefined>;
  /** A notification with `actions`; the one chosen, or undefined. */
  inform(message: string, actions?: readonly string[]): Promise<string | undefined>;
  /** The folder Apply writes in, through the editor (open editors follow, unsaved text counts). */
  readonly writer: FolderWriter;
  /** Shows what Apply wrote: each file before ↔ now, in one multi-file diff. */
  showApplied(title: string, files: readonly AppliedFile[]): Promise<void>;
  /** Opens files Apply left with conflict markers in the merge editor (their three versions). */
  openConflicts(files: readonly AppliedFile[]): Promise<void>;
  /** Shows the worktree's changes against its base commit in one multi-file diff. */
  showChanges(record: WorktreeRecord, files: readonly TreeFileChange[]): Promise<void>;
  /** Opens `folder` in a new window. */
  openWindow(folder: string): Promise<void>;
  /**
   * Lets the user choose the agents a prompt goes to (`bounds.min` to `bounds.max`, said in the picker);
   * their ids, or undefined (cancelled).
   */
  pickAgents(
    agents: readonly { readonly id: string; readonly label: string }[],
    bounds: { readonly min: number; readonly max: number },
  ): Promise<readonly string[] | undefined>;
  /** Lets the user pick leftover worktrees to remove; those picked. */
  pickLeftovers(leftovers: readonly LeftoverWorktree[]): Promise<readonly LeftoverWorktree[]>;
}
