import * as path from 'node:path';
import type { Event } from '../../../core/util/disposable';
import { isLexicallyWithin } from '../../../core/files/pathConfinement';
import type { CurrentFile } from '../../../protocol';

/** The active editor's file to offer on the composer, and when that changes (`acpAgents.chat.offerCurrentFile`). */
export interface CurrentFileSource {
  current(): CurrentFile | undefined;
  readonly onDidChange: Event<void>;
}

/** The document of an editor, as far as the offer cares. */
export interface EditorDocument {
  /** The URI's scheme: `file` for a file on disk, `untitled`, `git`, `vscode-notebook-cell`… */
  readonly scheme: string;
  /** The path on disk (for a `file` URI). */
  readonly fsPath: string;
  /** The whole URI, as the composer attaches it. */
  readonly uri: string;
}

/**
 * The chip for an editor's document, or nothing: only a file on disk inside a workspace folder is
 * offered (never an untitled document, a diff's side, an output, or a file outside the workspace).
 */
export function offerableFile(
  document: EditorDocument | undefined,
  workspaceFolders: readonly string[],
): CurrentFile | undefined {
  if (!document || document.scheme !== 'file') {
    return undefined;
  }
  if (!workspaceFolders.some((folder) => isLexicallyWithin(document.fsPath, folder))) {
    return undefined;
  }
  if (workspaceFolders.some((folder) => path.relative(folder, document.fsPath) === '')) {
    return undefined; // a workspace folder itself is not a file
  }
  return { uri: document.uri, name: path.basename(document.fsPath), kind: 'file' };
}
