/** The sample workspace: its folder, temporary files inside it, and its editors and tabs. */
import { strict as assert } from 'node:assert';
import { mkdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { perTest } from '../../support/perTest';
import { eventually } from './waits';

/** The sample workspace folder (test/fixtures/workspace). */
export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'no workspace folder is open');
  return folder.uri.fsPath;
}

/** A fresh folder inside the sample workspace, removed by `dispose()`. */
export class TempFolder {
  readonly path: string;

  constructor(name: string) {
    this.path = path.join(workspaceRoot(), `.it-${name}-${process.pid}-${Date.now().toString(36)}`);
    mkdirSync(this.path, { recursive: true });
  }

  file(name: string): string {
    return path.join(this.path, name);
  }

  dispose(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}

/**
 * Per test: a fresh `TempFolder` named `name` in the sample workspace, removed after the test (a test may
 * remove it earlier). Call it after `useDemoChats`, so the folder goes after the test's editors are closed.
 */
export function useWorkspaceFolder(name: string): Pick<TempFolder, 'path' | 'file' | 'dispose'> {
  const folder = perTest(
    'the workspace folder',
    () => new TempFolder(name),
    (made) => made.dispose(),
  );
  return {
    get path() {
      return folder.value.path;
    },
    file: (file) => folder.value.file(file),
    dispose: () => folder.value.dispose(),
  };
}

/** Reverts every dirty document (no "save?" dialog can block the run) and closes all editors. */
export async function closeAllEditors(): Promise<void> {
  const dirty = (): vscode.TextDocument[] =>
    vscode.workspace.textDocuments.filter((doc) => doc.isDirty && doc.uri.scheme === 'file');
  for (const document of dirty()) {
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  await eventually(
    `unsaved documents to be reverted (${dirty()
      .map((doc) => doc.uri.fsPath)
      .join(', ')})`,
    () => dirty().length === 0,
    5_000,
  );
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** Every open tab, across groups. */
export function allTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs);
}

/** Diff tabs whose proposed side is in the extension's `acp-proposed` scheme. */
export function proposalDiffTabs(): Array<vscode.Tab & { input: vscode.TabInputTextDiff }> {
  return allTabs().filter(
    (tab): tab is vscode.Tab & { input: vscode.TabInputTextDiff } =>
      tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === 'acp-proposed',
  );
}
