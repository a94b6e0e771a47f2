import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import type { EditorActions } from '../chat/viewSink';
import type { AttachmentRef } from '../protocol';

/** The scheme of read-only documents the chat opens (a message cut in the middle, whole). */
const READ_ONLY_SCHEME = 'acp-agents-message';

/**
 * Opens what the chat links to: files in an editor at the line, web pages in the browser, and
 * read-only documents of the chat's own text.
 */
export class VsCodeEditorActions implements EditorActions, vscode.Disposable {
  /** The documents' texts by path; a content provider's documents are read-only. */
  private readonly texts = new Map<string, string>();
  private provider: vscode.Disposable | undefined;

  /** `terminals`: the agents' terminals in VS Code, for a tool card's "Open in terminal". */
  constructor(private readonly terminals?: { show(terminalId: string, sessionId: string): boolean }) {}

  async showTerminal(terminalId: string, sessionId: string | undefined): Promise<void> {
    if (sessionId === undefined || !this.terminals?.show(terminalId, sessionId)) {
      throw new Error(
        'That terminal is no longer open (its agent released it, or the session ended); its output stays in the chat.',
      );
    }
  }

  async openReadOnly(title: string, text: string): Promise<void> {
    this.provider ??= vscode.workspace.registerTextDocumentContentProvider(READ_ONLY_SCHEME, {
      provideTextDocumentContent: (uri) => this.texts.get(uri.path) ?? '',
    });
    // One text per title: opening the same message again shows what the chat holds now.
    const uri = vscode.Uri.from({ scheme: READ_ONLY_SCHEME, path: `/${title}` });
    this.texts.set(uri.path, text);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(document, 'markdown');
    await vscode.window.showTextDocument(document, { preview: true });
  }

  dispose(): void {
    this.provider?.dispose();
    this.texts.clear();
  }

  async openFile(path: string, line?: number): Promise<void> {
    const uri = path.startsWith('file:') ? vscode.Uri.parse(path) : vscode.Uri.file(this.absolute(path));
    const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
    await vscode.window.showTextDocument(uri, {
      selection: new vscode.Range(position, position),
      preview: true,
      viewColumn: vscode.ViewColumn.Active,
    });
  }

  /** Agents often name files relative to the workspace (`src/a.ts:12`). */
  private absolute(filePath: string): string {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    return nodePath.isAbsolute(filePath) || !root ? filePath : nodePath.join(root, filePath);
  }

  async checkAgents(): Promise<void> {
    await vscode.commands.executeCommand('acpAgents.checkAgents');
  }

  async showLog(): Promise<void> {
    await vscode.commands.executeCommand('acpAgents.showLog');
  }

  async manageTrust(): Promise<void> {
    await vscode.commands.executeCommand('workbench.trust.manage');
  }

  async addAgent(): Promise<void> {
    await vscode.commands.executeCommand('acpAgents.addAgent');
  }

  async openUrl(url: string): Promise<void> {
    const uri = vscode.Uri.parse(url);
    // Only web pages: a link in agent output must not launch other URI handlers.
    if (uri.scheme !== 'http' && uri.scheme !== 'https') {
      throw new Error(`Refused to open a ${uri.scheme}: link from the chat.`);
    }
    await vscode.env.openExternal(uri);
  }

  async pickFiles(): Promise<AttachmentRef[]> {
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: true,
      canSelectFiles: true,
      canSelectFolders: false,
      openLabel: 'Attach',
      title: 'Attach files to the message',
      ...(vscode.workspace.workspaceFolders?.[0]
        ? { defaultUri: vscode.workspace.workspaceFolders[0].uri }
        : {}),
    });
    return (picked ?? []).map((uri) => ({ uri: uri.toString(), name: nodePath.basename(uri.fsPath) }));
  }
}
