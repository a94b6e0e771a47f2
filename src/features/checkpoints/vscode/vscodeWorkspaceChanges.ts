import { lstat } from 'node:fs/promises';
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { writeErrorInWords } from '../chat/putBack';
import type { RestoredFile, RestoreFailure, WorkspaceChangesPort } from '../chat/workspaceChanges';
import { removeWhenFree } from '../../../core/platform/heldFiles';
import type { Disposable } from '../../../core/util/disposable';
import type { TurnFileChange } from '../../../core/thread/threadTypes';
import { dirtyDocument } from '../../../vscode/openDocuments';
import type { UserPrompts } from '../../../vscode/userPrompts';

/** Files as they were at a checkpoint: `acp-checkpoint:/abs/path?<checkpoint id>`, read-only. */
export const CHECKPOINT_SCHEME = 'acp-checkpoint';
/** The query of a checkpoint URI for a side that has no file (created or deleted by the turn). */
const NO_FILE = 'none';

/**
 * The change review's hands in VS Code: diffs against a checkpoint (a read-only content provider),
 * the multi-file diff editor, restores as one workspace edit (open editors follow, undoable), a file
 * watcher for the live list, and the confirmations through the dialog seam.
 */
export class VsCodeWorkspaceChanges implements WorkspaceChangesPort, vscode.Disposable {
  private readonly registration: vscode.Disposable;
  /** Who is told of the workspace's file changes (the turns followed now). */
  private readonly changeListeners = new Set<(path: string) => void>();
  private workspaceWatcher: vscode.Disposable | undefined;

  constructor(
    /** A file's bytes at a checkpoint (the change review reads them from its store). */
    private readonly readAt: (checkpointId: string, path: string) => Promise<Uint8Array | undefined>,
    private readonly prompts: UserPrompts,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, {
      provideTextDocumentContent: async (uri) => {
        const bytes = uri.query === NO_FILE ? undefined : await this.readAt(uri.query, uri.fsPath);
        return bytes ? new TextDecoder('utf-8').decode(bytes) : '';
      },
    });
  }

  relativePath(path: string): string {
    return vscode.workspace.asRelativePath(path, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
  }

  async current(path: string): Promise<Uint8Array | undefined> {
    const open = dirtyDocument(path);
    if (open) {
      return new TextEncoder().encode(open.getText());
    }
    try {
      return await vscode.workspace.fs.readFile(vscode.Uri.file(path));
    } catch {
      return undefined;
    }
  }

  unsaved(path: string): boolean {
    return dirtyDocument(path) !== undefined;
  }

  folderOf(path: string): string | undefined {
    return vscode.workspace.getWorkspaceFolder(vscode.Uri.file(path))?.uri.fsPath;
  }

  async restore(files: readonly RestoredFile[]): Promise<RestoreFailure[]> {
    const failures: RestoreFailure[] = [];
    const writable: RestoredFile[] = [];
    for (const file of files) {
      try {
        if (file.replace) {
          await removeEntry(file.path);
        }
        writable.push(file);
      } catch (error) {
        failures.push({ path: file.path, reason: writeErrorInWords(error) });
      }
    }
    // Unsaved edits the user agreed to lose: VS Code's overwrite (createFile) reverts an open editor
    // to the written bytes — no save, so no save participants (format on save) run over them.
    // One edit (one undo step) when it all works; file by file when not, to restore all that can be.
    if (!(await this.applyAll(writable).catch(() => false))) {
      for (const file of writable) {
        const applied = await this.applyAll([file]).catch((error: unknown) => writeErrorInWords(error));
        if (applied !== true) {
          failures.push({
            path: file.path,
            reason: typeof applied === 'string' ? applied : 'VS Code refused to write it',
          });
        }
      }
    }
    return failures;
  }

  private async applyAll(files: readonly RestoredFile[]): Promise<boolean> {
    const edit = new vscode.WorkspaceEdit();
    for (const file of files) {
      const uri = vscode.Uri.file(file.path);
      if (file.bytes === undefined) {
        edit.deleteFile(uri, { ignoreIfNotExists: true });
      } else {
        await vscode.workspace.fs.createDirectory(vscode.Uri.file(nodePath.dirname(file.path)));
        // Exact bytes (line endings, encoding) rather than editor text; an open editor reloads from disk.
        edit.createFile(uri, { overwrite: true, contents: file.bytes });
      }
    }
    return vscode.workspace.applyEdit(edit);
  }

  async openDiff(checkpointId: string, file: TurnFileChange): Promise<void> {
    const [before, after] = this.sides(checkpointId, file);
    await vscode.commands.executeCommand(
      'vscode.diff',
      before,
      after,
      `${nodePath.basename(file.path)} (before the turn ↔ now)`,
      { preview: true },
    );
  }

  async openChanges(checkpointId: string, files: readonly TurnFileChange[], title: string): Promise<void> {
    await vscode.commands.executeCommand(
      'vscode.changes',
      title,
      files.map((file) => [vscode.Uri.file(file.path), ...this.sides(checkpointId, file)]),
    );
  }

  async confirm(message: string, detail: string, action: string): Promise<boolean> {
    return (await this.prompts.modal(message, detail, [action])) === action;
  }

  /**
   * One watcher for the window's life, made at the first turn followed: each turn's start only adds a
   * listener. Making a watcher (and its three events) took a Send's turn start ≈ 0.2 ms before the prompt
   * went out; VS Code sends the workspace's file events to the extension host whether or not one listens.
   */
  watch(onChange: (path: string) => void): Disposable {
    this.changeListeners.add(onChange);
    this.workspaceWatcher ??= this.watchWorkspace();
    return { dispose: () => this.changeListeners.delete(onChange) };
  }

  private watchWorkspace(): vscode.Disposable {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    const report = (uri: vscode.Uri): void => {
      if (this.changeListeners.size === 0 || uri.scheme !== 'file') {
        return;
      }
      if (!uri.fsPath.split(/[\\/]/).includes('.git')) {
        this.changeListeners.forEach((listener) => listener(uri.fsPath));
      }
    };
    return vscode.Disposable.from(
      watcher,
      watcher.onDidCreate(report),
      watcher.onDidChange(report),
      watcher.onDidDelete(report),
    );
  }

  inform(message: string): void {
    void this.prompts.notify(message, []);
  }

  dispose(): void {
    this.registration.dispose();
    this.workspaceWatcher?.dispose();
    this.changeListeners.clear();
  }

  /** The diff's sides: the file at the checkpoint (empty when created) and now (empty when deleted). */
  private sides(checkpointId: string, file: TurnFileChange): [vscode.Uri, vscode.Uri] {
    const at = (query: string): vscode.Uri =>
      vscode.Uri.file(file.path).with({ scheme: CHECKPOINT_SCHEME, query });
    return [
      at(file.kind === 'created' ? NO_FILE : checkpointId),
      file.kind === 'deleted' ? at(NO_FILE) : vscode.Uri.file(file.path),
    ];
  }
}

/**
 * Removes a link or special file itself (never what a link points to), so the file can be written
 * anew in its place; a folder there is left (the confinement check refused it already).
 */
async function removeEntry(path: string): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (info !== undefined && !info.isDirectory()) {
    await removeWhenFree(path);
  }
}
