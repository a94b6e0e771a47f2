/** The hunk review's commands as the editor runs them. */
import * as vscode from 'vscode';

/** A waiting write's hunk as the editor shows it: where it stands among the write's hunks. */
export interface ProposedHunkRef {
  readonly index: number;
  readonly hunk: unknown;
}

/** Keeps or undoes one hunk of a write waiting for review, by the CodeLens's command and arguments, as a click runs it. */
export function decideProposedHunk(file: string, view: ProposedHunkRef, how: 'keep' | 'undo'): Thenable<unknown> {
  return vscode.commands.executeCommand(`acpAgents.hunks.${how}`, file, view.index, view.hunk, 'proposed');
}
