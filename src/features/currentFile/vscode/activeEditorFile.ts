import * as vscode from 'vscode';
import { Emitter } from '../../../core/util/disposable';
import type { CurrentFile } from '../../../protocol';
import { offerableFile, type CurrentFileSource } from '../chat/currentFileSource';

const SETTING = 'acpAgents.chat.offerCurrentFile';

/**
 * The active editor's file, followed as the editor changes, for the composer's "current file" chip;
 * nothing while `acpAgents.chat.offerCurrentFile` is off. Focusing the chat in an editor tab leaves no
 * active text editor: the last file stays offered while it is still visible.
 */
export class ActiveEditorFile implements CurrentFileSource, vscode.Disposable {
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private file: CurrentFile | undefined;
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
      vscode.window.onDidChangeVisibleTextEditors(() => this.refresh()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.refresh()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SETTING)) {
          this.refresh();
        }
      }),
    ];
    this.file = this.compute();
  }

  current(): CurrentFile | undefined {
    return this.file;
  }

  private refresh(): void {
    const next = this.compute();
    if (next?.uri !== this.file?.uri) {
      this.file = next;
      this.changed.fire();
    }
  }

  private compute(): CurrentFile | undefined {
    if (!vscode.workspace.getConfiguration().get<boolean>(SETTING, true)) {
      return undefined;
    }
    const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
    const active = vscode.window.activeTextEditor?.document.uri;
    const kept =
      this.file && vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === this.file?.uri);
    const uri = active ?? kept?.document.uri;
    return offerableFile(uri && { scheme: uri.scheme, fsPath: uri.fsPath, uri: uri.toString() }, folders);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) {
      subscription.dispose();
    }
    this.changed.dispose();
  }
}
