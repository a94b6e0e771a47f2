import * as vscode from 'vscode';
import { combineGlobs, enabledPatterns } from '../chat/ignoreGlobs';
import { IGNORE_FILES_GLOB, readGitignoreRules, relativePath } from './workspaceGitignore';

/** The most files the picker indexes (a bound on memory and on `findFiles`'s time). */
const MAX_FILES = 50_000;

/**
 * The most ignored-folder globs handed to `findFiles` (the shallowest files' come first). They only
 * spare the search work: what they leave out is filtered by the rules afterwards anyway.
 */
const MAX_FOLDER_GLOBS = 200;

/**
 * The workspace's files for the @-mention picker, listed once and kept current by a file system
 * watcher, so a keystroke ranks a cached list instead of searching 20,000 files again. Excludes
 * `files.exclude`, `search.exclude` and what git ignores: every `.gitignore` in the folder and
 * `.git/info/exclude`, with git's semantics (1.95 has no stable ignore-file-aware `findFiles`, so
 * the rules are applied here; folders they exclude are skipped by the search when that is safe).
 * A create or delete, or an edit of an ignore file, marks the list stale; the next query still
 * answers from the old list and a fresh one is built behind it.
 */
export class WorkspaceFileIndex implements vscode.Disposable {
  private files: vscode.Uri[] | undefined;
  private building: Promise<vscode.Uri[]> | undefined;
  private stale = false;
  private readonly disposables: vscode.Disposable[] = [];

  constructor() {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    const ignoreFiles = vscode.workspace.createFileSystemWatcher(IGNORE_FILES_GLOB, true, false, true);
    const changed = (): void => {
      this.stale = true;
    };
    this.disposables.push(
      watcher,
      watcher.onDidCreate(changed),
      watcher.onDidDelete(changed),
      ignoreFiles,
      ignoreFiles.onDidChange(changed),
      vscode.workspace.onDidChangeWorkspaceFolders(changed),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('files.exclude') || event.affectsConfiguration('search.exclude')) {
          changed();
        }
      }),
    );
  }

  /** The indexed files; the first call waits for the listing, later ones answer at once. */
  async list(): Promise<readonly vscode.Uri[]> {
    if (this.files && this.stale && !this.building) {
      this.stale = false;
      void this.rebuild();
    }
    return this.files ?? (await (this.building ?? this.rebuild()));
  }

  private rebuild(): Promise<vscode.Uri[]> {
    const building = this.listFiles().then(
      (files) => {
        this.files = files;
        return files;
      },
      () => this.files ?? [],
    );
    this.building = building;
    void building.finally(() => {
      if (this.building === building) {
        this.building = undefined;
      }
    });
    return building;
  }

  private async listFiles(): Promise<vscode.Uri[]> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const lists = await Promise.all(folders.map((folder) => listFolder(folder)));
    return lists.flat();
  }

  dispose(): void {
    for (const disposable of this.disposables) {
      disposable.dispose();
    }
  }
}

async function listFolder(folder: vscode.WorkspaceFolder): Promise<vscode.Uri[]> {
  const settingsExcludes = [
    ...enabledPatterns(vscode.workspace.getConfiguration('files', folder).get('exclude')),
    ...enabledPatterns(vscode.workspace.getConfiguration('search', folder).get('exclude')),
    '**/.git/**',
  ];
  const rules = await readGitignoreRules(folder, combineGlobs(settingsExcludes));
  // An explicit exclude replaces the default one (files.exclude), which is why it is in the list.
  const exclude = combineGlobs([...settingsExcludes, ...rules.folderGlobs().slice(0, MAX_FOLDER_GLOBS)]);
  const files = await vscode.workspace.findFiles(
    new vscode.RelativePattern(folder, '**/*'),
    exclude === undefined ? null : new vscode.RelativePattern(folder, exclude),
    MAX_FILES,
  );
  return files.filter((uri) => !rules.ignores(relativePath(folder, uri)));
}
