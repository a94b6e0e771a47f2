import * as vscode from 'vscode';

/** A path as VS Code shows it: relative to its workspace folder (named when there are several), else unchanged. */
export function workspaceRelative(path: string): string {
  return vscode.workspace.asRelativePath(path, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

/** Free text (a tool title like "Write /work/app/a.ts") with the workspace folders' paths made relative. */
export function workspaceRelativeText(text: string): string {
  const folders = vscode.workspace.workspaceFolders ?? [];
  let result = text;
  for (const folder of [...folders].sort((a, b) => b.uri.fsPath.length - a.uri.fsPath.length)) {
    const prefix = folders.length > 1 ? `${folder.name}/` : '';
    for (const separator of ['/', '\\']) {
      result = result.split(folder.uri.fsPath + separator).join(prefix);
    }
  }
  return result;
}
