import * as vscode from 'vscode';

/**
 * The editor's document for the file at `filePath`, if VS Code holds one that is not closed. VS Code keeps
 * documents after their editor closes and after the file is deleted, so this is not proof the file exists.
 */
export function openDocument(filePath: string): vscode.TextDocument | undefined {
  const fsPath = vscode.Uri.file(filePath).fsPath;
  return vscode.workspace.textDocuments.find(
    (doc) => doc.uri.scheme === 'file' && doc.uri.fsPath === fsPath && !doc.isClosed,
  );
}

/** The open document of `filePath` when it has unsaved changes: what the user sees is not the disk's text. */
export function dirtyDocument(filePath: string): vscode.TextDocument | undefined {
  const document = openDocument(filePath);
  return document?.isDirty === true ? document : undefined;
}
