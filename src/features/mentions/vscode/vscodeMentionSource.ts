import * as vscode from 'vscode';
import { fuzzyPathScore, fuzzyScore, rankBy } from '../chat/fuzzyRank';
import type { MentionSource } from '../chat/mentionSource';
import { abortable } from '../../../core/util/abortable';
import type { Mention } from '../../../protocol';
import { folderPaths, PathRanker } from '../chat/pathRanker';
import { WorkspaceFileIndex, type FolderFiles } from './workspaceFileIndex';

/** How long the picker waits for language servers' workspace symbols before answering without them. */
const SYMBOL_TIMEOUT_MS = 1_500;
/** Quiet time after a keystroke before the workspace-symbol search starts. */
const SYMBOL_DEBOUNCE_MS = 150;
const MAX_SYMBOLS = 10;
const MAX_FOLDERS = 5;
const MAX_EDITORS = 5;
const MAX_PROBLEM_FILES = 5;

/** The index ranked per keystroke: every folder's files in one list, and the folders they are in. */
interface RankedIndex {
  readonly source: readonly FolderFiles[];
  readonly files: PathRanker;
  /** Where each workspace folder's files start in `files`, in order. */
  readonly starts: readonly { readonly index: number; readonly folder: vscode.Uri }[];
  readonly folders: PathRanker;
}

/**
 * The @-mention picker's entries from VS Code: the selection, open editors, workspace files and
 * folders (from the cached index), workspace symbols and files with problems — each group ranked
 * fuzzily, in that order, so what the user is looking at comes first.
 */
export class VsCodeMentionSource implements MentionSource, vscode.Disposable {
  private readonly index = new WorkspaceFileIndex();
  /** Symbol searches asked for; only the latest runs. */
  private symbolQueries = 0;
  private indexed: RankedIndex | undefined;

  async query(query: string, limit: number): Promise<Mention[]> {
    const trimmed = query.trim();
    const [files, symbols] = await Promise.all([this.files(), this.symbols(trimmed)]);
    const editors = this.openEditors();
    const editorUris = new Set(editors.map((editor) => editor.uri));
    const rankedEditors = rankBy(
      editors,
      trimmed,
      (q, m) => fuzzyPathScore(q, m.detail ?? m.name),
      MAX_EDITORS,
    );
    // Open editors are listed above: left out of the files (asked only of files good enough to show).
    const rankedFiles = files.files
      .rank(trimmed, limit, (index) => editorUris.has(fileUri(files, index)))
      .map((index): Mention => {
        const relative = files.files.paths[index] as string;
        return { kind: 'file', uri: fileUri(files, index), name: baseName(relative), detail: relative };
      });
    const folders = files.folders.rank(trimmed, MAX_FOLDERS).map((index): Mention => {
      const folder = files.folders.paths[index] as string;
      return { kind: 'folder', uri: this.folderUri(folder), name: `${baseName(folder)}/`, detail: folder };
    });
    const problems = rankBy(
      this.problemFiles(),
      trimmed,
      (q, m) => fuzzyScore(q, `problems ${m.detail ?? ''}`),
      MAX_PROBLEM_FILES,
    );
    const selection = this.selection().filter(
      (m) => fuzzyScore(trimmed, `selection ${m.detail ?? ''}`) !== undefined,
    );
    return [...selection, ...rankedEditors, ...rankedFiles, ...folders, ...symbols, ...problems].slice(
      0,
      limit,
    );
  }

  problems(uri: string): string[] {
    const target = vscode.Uri.parse(uri.startsWith('file:') ? uri : vscode.Uri.file(uri).toString());
    return vscode.languages.getDiagnostics(target).map((diagnostic) => {
      const start = diagnostic.range.start;
      const source = diagnostic.source ? ` (${diagnostic.source})` : '';
      return `${vscode.workspace.asRelativePath(target)}:${start.line + 1}:${start.character + 1} ${severityName(diagnostic.severity)} ${diagnostic.message}${source}`;
    });
  }

  private async files(): Promise<RankedIndex> {
    const source = await this.index.list();
    if (this.indexed?.source !== source) {
      const starts: { index: number; folder: vscode.Uri }[] = [];
      let count = 0;
      for (const { folder, files } of source) {
        starts.push({ index: count, folder });
        count += files.length;
      }
      // One folder (the usual case): its list as it is, not a copy.
      const paths = source.length === 1 ? (source[0]?.files ?? []) : source.flatMap((entry) => entry.files);
      this.indexed = {
        source,
        files: new PathRanker(paths),
        starts,
        folders: new PathRanker(folderPaths(paths)),
      };
    }
    return this.indexed;
  }

  private folderUri(relative: string): string {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    return root ? vscode.Uri.joinPath(root, relative).toString() : relative;
  }

  private openEditors(): Mention[] {
    const seen = new Set<string>();
    const editors: Mention[] = [];
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        if (tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === 'file') {
          const uri = tab.input.uri.toString();
          if (!seen.has(uri)) {
            seen.add(uri);
            const relative = vscode.workspace.asRelativePath(tab.input.uri, false);
            editors.push({ kind: 'editor', uri, name: baseName(relative), detail: `${relative} · open` });
          }
        }
      }
    }
    return editors;
  }

  private selection(): Mention[] {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.selection.isEmpty || editor.document.uri.scheme !== 'file') {
      return [];
    }
    const startLine = editor.selection.start.line + 1;
    const endLine =
      editor.selection.end.character === 0 && editor.selection.end.line > editor.selection.start.line
        ? editor.selection.end.line
        : editor.selection.end.line + 1;
    const relative = vscode.workspace.asRelativePath(editor.document.uri, false);
    return [
      {
        kind: 'selection',
        uri: editor.document.uri.toString(),
        name: `Selection (${baseName(relative)}:${startLine}-${endLine})`,
        detail: relative,
        range: { startLine, endLine },
      },
    ];
  }

  private async symbols(query: string): Promise<Mention[]> {
    if (query.length < 2) {
      return [];
    }
    // Debounced: each keystroke must not start a workspace-wide symbol search; a newer query wins.
    const generation = ++this.symbolQueries;
    await new Promise((resolve) => setTimeout(resolve, SYMBOL_DEBOUNCE_MS));
    if (generation !== this.symbolQueries) {
      return [];
    }
    // A slow language server or none: the picker answers without symbols.
    const found = await abortable(
      Promise.resolve(
        vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>(
          'vscode.executeWorkspaceSymbolProvider',
          query,
        ),
      ),
      AbortSignal.timeout(SYMBOL_TIMEOUT_MS),
    ).catch(() => undefined);
    return rankBy(found ?? [], query, (q, symbol) => fuzzyScore(q, symbol.name), MAX_SYMBOLS).map(
      (symbol): Mention => {
        const range = symbol.location.range;
        const relative = vscode.workspace.asRelativePath(symbol.location.uri, false);
        return {
          kind: 'symbol',
          uri: symbol.location.uri.toString(),
          name: symbol.name,
          detail: `${vscode.SymbolKind[symbol.kind] ?? 'symbol'} · ${relative}:${range.start.line + 1}`,
          range: { startLine: range.start.line + 1, endLine: range.end.line + 1 },
        };
      },
    );
  }

  private problemFiles(): Mention[] {
    return vscode.languages.getDiagnostics().flatMap(([uri, diagnostics]): Mention[] => {
      const counted = diagnostics.filter(
        (d) =>
          d.severity === vscode.DiagnosticSeverity.Error || d.severity === vscode.DiagnosticSeverity.Warning,
      );
      if (counted.length === 0 || uri.scheme !== 'file') {
        return [];
      }
      const relative = vscode.workspace.asRelativePath(uri, false);
      return [
        {
          kind: 'problems',
          uri: uri.toString(),
          name: `Problems in ${baseName(relative)}`,
          detail: `${relative} · ${counted.length} ${counted.length === 1 ? 'problem' : 'problems'}`,
        },
      ];
    });
  }

  dispose(): void {
    this.index.dispose();
  }
}

/** The URI of file `index` of the ranked index. */
function fileUri(indexed: RankedIndex, index: number): string {
  let folder = indexed.starts[0]?.folder;
  for (const start of indexed.starts) {
    if (start.index > index) {
      break;
    }
    folder = start.folder;
  }
  return folder === undefined
    ? ''
    : vscode.Uri.joinPath(folder, indexed.files.paths[index] as string).toString();
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function severityName(severity: vscode.DiagnosticSeverity): string {
  switch (severity) {
    case vscode.DiagnosticSeverity.Error:
      return 'error';
    case vscode.DiagnosticSeverity.Warning:
      return 'warning';
    case vscode.DiagnosticSeverity.Information:
      return 'info';
    case vscode.DiagnosticSeverity.Hint:
      return 'hint';
    default:
      return 'problem';
  }
}
