import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FileHandle } from 'node:fs/promises';
import { looksBinary } from '../core/files/binaryContent';
import {
  checkWriteTarget,
  ConfinementRaceError,
  isInside,
  isLexicallyWithin,
  openInside,
} from '../core/files/pathConfinement';
import { pathNameProblem } from '../core/platform/pathProblems';
import { ClientRefusalError, FileNotFoundError, type FileSystemPort, type Logger } from '../core/ports';
import { dirtyDocument, openDocument } from './openDocuments';
import type { UserPrompts } from './userPrompts';

export interface FileSettings {
  /** Files larger than this are refused to the agent instead of sent as megabytes of text. */
  readonly maxReadBytes: number;
}

/**
 * What the user decided about a proposed write: `keep` writes it, `undo` refuses it (the agent is told the
 * user declined), `partly` writes the text given — the proposal with some of its changes dropped.
 */
export type WriteDecision = 'keep' | 'undo' | { readonly partly: string };

/**
 * Asked before an agent's write is applied, with the file's current text (null: a new file) and the
 * proposed one. The answer may come minutes later: the file is checked again before anything is written.
 */
export type WriteReview = (
  filePath: string,
  current: string | null,
  proposed: string,
) => Promise<WriteDecision>;

const ALLOW_OUTSIDE = 'Allow';
const OVERWRITE = 'Replace my changes';

/**
 * The agent's file access through VS Code: reads see unsaved editor text, writes are workspace
 * edits (undoable, visible in open editors) that are saved afterwards, and nothing outside the
 * workspace folders is touched without a modal yes.
 */
export class WorkspaceFileSystem implements FileSystemPort {
  constructor(
    private readonly settings: () => FileSettings,
    private readonly prompts: UserPrompts,
    private readonly log: Logger,
    /** The user's review of each write, when writes are reviewed (the edit review feature). */
    private readonly review?: WriteReview,
    /**
     * The folders a session's files are confined to when its chat has a place of its own (a worktree):
     * then those, not the workspace folders. Undefined for a session: the workspace folders.
     */
    private readonly sessionRoots?: (sessionId: string) => readonly string[] | undefined,
  ) {}

  async readTextFile(filePath: string, context?: { sessionId: string }): Promise<string> {
    const roots = this.rootsFor(context);
    await this.confine(filePath, 'read', roots);
    const uri = vscode.Uri.file(filePath);
    const limit = this.settings().maxReadBytes;
    const open = await this.liveDocument(uri);
    if (open) {
      const text = open.getText();
      if (text.length > limit) {
        throw tooLarge(filePath, text.length, limit);
      }
      return text;
    }
    const bytes = await this.readDisk(filePath, uri, limit, roots);
    if (looksBinary(bytes)) {
      throw new ClientRefusalError(
        `${filePath} is a binary file; only text files can be read.`,
        'unsupported',
      );
    }
    return new TextDecoder('utf-8').decode(bytes);
  }

  async writeTextFile(filePath: string, proposed: string, context?: { sessionId: string }): Promise<void> {
    const roots = this.rootsFor(context);
    await this.confine(filePath, 'write', roots);
    const uri = vscode.Uri.file(filePath);
    const current = await this.currentText(uri);
    let content = proposed;
    if (this.review !== undefined) {
      const target = await writeTargetKind(filePath, roots);
      const decision = await this.review(filePath, current, proposed);
      if (decision === 'undo') {
        throw new ClientRefusalError(`The user rejected the edit to ${filePath}.`, 'user_declined');
      }
      content = decision === 'keep' ? proposed : decision.partly;
      await this.unchangedSinceReview(filePath, roots, target, current);
    }

    const open = dirtyDocument(uri.fsPath);
    if (open !== undefined) {
      const saved = await this.diskText(uri);
      if (open.getText() !== saved && open.getText() !== content) {
        const choice = await this.prompts.modal(
          `${path.basename(filePath)} has unsaved changes. Replace them with the agent's version?`,
          'Your unsaved changes would be lost. Choose "Replace my changes" to apply the agent\'s edit anyway.',
          [OVERWRITE],
        );
        if (choice !== OVERWRITE) {
          throw new ClientRefusalError(
            `${filePath} has unsaved changes in the editor; the user kept them.`,
            'user_declined',
          );
        }
      }
    }
    await this.apply(uri, content);
  }

  /**
   * Refuses a reviewed write when its file changed while the user decided: rewritten (the text reviewed is
   * no longer what is there), or a link or a folder swapped in on its path (the write would land elsewhere).
   */
  private async unchangedSinceReview(
    filePath: string,
    roots: readonly string[],
    target: string | undefined,
    reviewed: string | null,
  ): Promise<void> {
    const now = await writeTargetKind(filePath, roots);
    if (now !== target) {
      throw new ClientRefusalError(
        `${filePath} changed while the edit waited for review (${now ?? 'it is no longer inside the workspace'}); nothing was written.`,
        'unsupported',
      );
    }
    if ((await this.currentText(vscode.Uri.file(filePath))) !== reviewed) {
      throw new ClientRefusalError(
        `${filePath} was changed while the edit waited for review; nothing was written. Read it again before editing it.`,
        'unsupported',
      );
    }
  }

  /** Applies the content as one workspace edit (undoable with Ctrl+Z) and saves the document. */
  private async apply(uri: vscode.Uri, content: string): Promise<void> {
    const edit = new vscode.WorkspaceEdit();
    let document = openDocument(uri.fsPath);
    if (!document && !(await this.exists(uri))) {
      await vscode.workspace.fs.createDirectory(vscode.Uri.file(path.dirname(uri.fsPath)));
      edit.createFile(uri, { ignoreIfExists: true });
      if (!(await vscode.workspace.applyEdit(edit))) {
        throw new Error(`Could not create ${uri.fsPath}.`);
      }
    }
    document = await vscode.workspace.openTextDocument(uri);
    const replace = new vscode.WorkspaceEdit();
    const all = new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length));
    replace.replace(uri, all, content);
    if (!(await vscode.workspace.applyEdit(replace))) {
      throw new Error(`Could not apply the edit to ${uri.fsPath}.`);
    }
    if (!(await document.save())) {
      throw new Error(`The edit to ${uri.fsPath} was applied but could not be saved.`);
    }
  }

  /**
   * The file's bytes from disk. Inside the workspace it is opened, then verified to still be the
   * file that was checked (a symlink swapped in after the check is refused); outside, the user
   * has already said yes to reading it.
   */
  private async readDisk(
    filePath: string,
    uri: vscode.Uri,
    limit: number,
    roots: readonly string[],
  ): Promise<Uint8Array> {
    let handle: FileHandle | undefined;
    try {
      handle = await openInside(filePath, roots);
    } catch (error) {
      if (error instanceof ConfinementRaceError) {
        throw new ClientRefusalError(error.message, 'outside_workspace');
      }
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new FileNotFoundError(filePath);
      }
      throw error;
    }
    if (handle) {
      try {
        const stat = await handle.stat();
        if (stat.isDirectory()) {
          throw new ClientRefusalError(`${filePath} is a folder, not a file.`, 'unsupported');
        }
        if (stat.size > limit) {
          throw tooLarge(filePath, stat.size, limit);
        }
        return await handle.readFile();
      } finally {
        await handle.close();
      }
    }
    let stat: vscode.FileStat;
    try {
      stat = await vscode.workspace.fs.stat(uri);
    } catch {
      throw new FileNotFoundError(filePath);
    }
    if (stat.type & vscode.FileType.Directory) {
      throw new ClientRefusalError(`${filePath} is a folder, not a file.`, 'unsupported');
    }
    if (stat.size > limit) {
      throw tooLarge(filePath, stat.size, limit);
    }
    return vscode.workspace.fs.readFile(uri);
  }

  /**
   * Refuses paths outside the workspace folders unless the user allows it in a modal dialog, and
   * without asking a path the system would not take as written (Windows: `C:foo`, `\\?\`, `CON`, `a.txt:x`).
   */
  private async confine(filePath: string, access: 'read' | 'write', roots: readonly string[]): Promise<void> {
    const problem = pathNameProblem(filePath);
    if (problem !== undefined) {
      throw new ClientRefusalError(`${filePath} ${problem}.`, 'unsupported');
    }
    if (roots.length > 0 && (await isInside(filePath, roots))) {
      return;
    }
    const choice = await this.prompts.modal(
      `The agent wants to ${access} a file outside the workspace: ${filePath}`,
      'Files outside the open workspace folders are refused unless you allow it, also when reached through ".." or a symbolic link.',
      [ALLOW_OUTSIDE],
    );
    this.log.info(
      `Access to ${access} ${filePath} outside the workspace: ${choice === ALLOW_OUTSIDE ? 'allowed' : 'refused'}`,
    );
    if (choice !== ALLOW_OUTSIDE) {
      throw new ClientRefusalError(
        `Access to ${filePath} was refused: it is outside the workspace.`,
        'outside_workspace',
      );
    }
  }

  /** The folders the session's files are confined to: its chat's own place, else the workspace folders. */
  private rootsFor(context: { sessionId: string } | undefined): readonly string[] {
    return (context && this.sessionRoots?.(context.sessionId)) ?? workspaceRoots();
  }

  /** What the user sees now: the editor's text when open, else the disk; null for a new file. */
  private async currentText(uri: vscode.Uri): Promise<string | null> {
    return (await this.liveDocument(uri))?.getText() ?? (await this.diskText(uri));
  }

  /**
   * The document whose text stands for the file: one with unsaved changes, or a saved one whose file
   * is still there. VS Code keeps documents in memory after their editor closes and after the file
   * is deleted outside it; such a stale copy must not pass for the disk (a deleted file is new again).
   */
  private async liveDocument(uri: vscode.Uri): Promise<vscode.TextDocument | undefined> {
    const document = openDocument(uri.fsPath);
    if (!document) {
      return undefined;
    }
    return document.isDirty || (await this.exists(uri)) ? document : undefined;
  }

  private async diskText(uri: vscode.Uri): Promise<string | null> {
    try {
      return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
    } catch {
      return null;
    }
  }

  private async exists(uri: vscode.Uri): Promise<boolean> {
    try {
      await vscode.workspace.fs.stat(uri);
      return true;
    } catch {
      return false;
    }
  }
}

function tooLarge(filePath: string, size: number, limit: number): ClientRefusalError {
  return new ClientRefusalError(
    `${filePath} is ${formatBytes(size)}, over the ${formatBytes(limit)} limit for reading files (setting acpAgents.files.maxReadBytes).`,
    'unsupported',
  );
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/**
 * What is at `filePath` for a write, in words (`in-place`, or why it is refused or would be replaced), checked
 * one name at a time without following links; undefined when it is in none of `roots` (allowed outside).
 */
async function writeTargetKind(filePath: string, roots: readonly string[]): Promise<string | undefined> {
  const root = roots.find((candidate) => isLexicallyWithin(filePath, candidate));
  if (root === undefined) {
    return undefined;
  }
  const target = await checkWriteTarget(filePath, root);
  return target.kind === 'in-place'
    ? 'in-place'
    : target.kind === 'replace'
      ? `its name is now ${target.what}`
      : target.reason;
}

function workspaceRoots(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
}
