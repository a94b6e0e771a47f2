import * as vscode from 'vscode';
import { combineGlobs, enabledPatterns, excludeMatcher } from '../chat/ignoreGlobs';
import { MAX_INDEXED_FILES, findGit, listGitFiles } from '../core/gitFileList';
import { deadlineSignal } from '../../../core/util/clock';
import { IGNORE_FILES_GLOB, readGitignoreRules, relativePath } from './workspaceGitignore';

/** A git that has not listed a folder by then (a network file system, a lock) is given up on. */
const GIT_TIMEOUT_MS = 20_000;

/** One workspace folder's indexed files: paths relative to it (`/`-separated), not a `vscode.Uri` each. */
export interface FolderFiles {
  readonly folder: vscode.Uri;
  readonly files: readonly string[];
}

/**
 * The workspace's files for the @-mention picker, listed once and kept current by a file system
 * watcher, so a keystroke ranks a cached list instead of searching 20,000 files again. Excludes
 * `files.exclude`, `search.exclude` and what git ignores, as git itself says (`git ls-files`; 1.95 has
 * no stable ignore-file-aware `findFiles`). Without git, or in an untrusted workspace (git reads the
 * repository's config), the ignore files are read and applied here instead.
 * A create or delete, or an edit of an ignore file, marks the list stale; the next query still
 * answers from the old list and a fresh one is built behind it.
 */
export class WorkspaceFileIndex implements vscode.Disposable {
  private files: FolderFiles[] | undefined;
  private building: Promise<FolderFiles[]> | undefined;
  private stale = false;
  private readonly disposables: vscode.Disposable[] = [];
  /** Stops a running git when the index goes. */
  private readonly disposed = new AbortController();

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
      vscode.workspace.onDidGrantWorkspaceTrust(changed),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('files.exclude') || event.affectsConfiguration('search.exclude')) {
          changed();
        }
      }),
    );
  }

  /** The indexed files; the first call waits for the listing, later ones answer at once. */
  async list(): Promise<readonly FolderFiles[]> {
    if (this.files && this.stale && !this.building) {
      this.stale = false;
      void this.rebuild();
    }
    return this.files ?? (await (this.building ?? this.rebuild()));
  }

  private rebuild(): Promise<FolderFiles[]> {
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

  private listFiles(): Promise<FolderFiles[]> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    return Promise.all(
      folders.map(async (folder) => ({
        folder: folder.uri,
        files: await listFolder(folder, this.disposed.signal),
      })),
    );
  }

  dispose(): void {
    this.disposed.abort();
    for (const disposable of this.disposables) {
      disposable.dispose();
    }
  }
}

async function listFolder(folder: vscode.WorkspaceFolder, disposed: AbortSignal): Promise<string[]> {
  const settingsExcludes = [
    ...enabledPatterns(vscode.workspace.getConfiguration('files', folder).get('exclude')),
    ...enabledPatterns(vscode.workspace.getConfiguration('search', folder).get('exclude')),
    '**/.git',
  ];
  const listed = await listWithGit(folder, settingsExcludes, disposed);
  if (listed !== undefined) {
    return listed;
  }
  const exclude = combineGlobs(settingsExcludes);
  const rules = await readGitignoreRules(folder, exclude);
  const files = await vscode.workspace.findFiles(
    new vscode.RelativePattern(folder, '**/*'),
    // An explicit exclude replaces the default one (files.exclude), which is why it is in the list.
    exclude === undefined ? null : new vscode.RelativePattern(folder, exclude),
    MAX_INDEXED_FILES,
  );
  return files.map((uri) => relativePath(folder, uri)).filter((relative) => !rules.ignores(relative));
}

/**
 * The folder's files as git lists them, less the settings' excludes; undefined when git cannot say
 * (then the ignore files are read instead). An empty answer counts as none: a folder wholly ignored
 * by an enclosing repository (a home folder kept in git) would otherwise offer nothing.
 */
async function listWithGit(
  folder: vscode.WorkspaceFolder,
  settingsExcludes: readonly string[],
  disposed: AbortSignal,
): Promise<string[] | undefined> {
  if (folder.uri.scheme !== 'file' || !vscode.workspace.isTrusted) {
    return undefined;
  }
  const git = await findGit(process.env, folder.uri.fsPath);
  if (git === undefined) {
    return undefined;
  }
  const excluded = excludeMatcher(settingsExcludes);
  const deadline = deadlineSignal(GIT_TIMEOUT_MS, disposed);
  const files = await listGitFiles({
    git,
    folder: folder.uri.fsPath,
    signal: deadline.signal,
    maxFiles: MAX_INDEXED_FILES,
    accept: (file) => !excluded(file),
  }).finally(() => deadline.dispose());
  return files === undefined || files.length === 0 ? undefined : files;
}
