/**
 * Paths as VS Code shows them: relative to the workspace folder (prefixed with the folder's name
 * when there are several), absolute only outside the workspace. The full path stays available
 * for tooltips.
 */
export class WorkspacePaths {
  /** Longest first, so a nested folder wins over its parent. */
  private readonly folders: readonly string[];
  /** Several workspace folders: a path names its folder. */
  private readonly named: boolean;

  /**
   * `chatFolder`: where the chat works when that is a folder of its own (its git worktree, beside the
   * repository): its files read as the workspace's do, since the chat's header already says where it works.
   */
  constructor(folders: readonly string[] = [], chatFolder?: string) {
    this.named = folders.length > 1;
    this.folders = [...folders, ...(chatFolder === undefined ? [] : [chatFolder])]
      .map(trimSeparator)
      .filter((folder) => folder !== '')
      .sort((a, b) => b.length - a.length);
  }

  /** `/work/app/src/a.ts` → `src/a.ts` in the folder `/work/app`; other paths unchanged. */
  relative(path: string): string {
    for (const folder of this.folders) {
      if (path === folder) {
        return baseName(folder);
      }
      if (path.startsWith(folder) && isSeparator(path[folder.length])) {
        const rest = path.slice(folder.length + 1);
        return this.named ? `${baseName(folder)}/${rest}` : rest;
      }
    }
    return path;
  }

  /** Every workspace path inside free text (a tool title such as "Write /work/app/a.ts") made relative. */
  inText(text: string): string {
    let result = text;
    for (const folder of this.folders) {
      const prefix = this.named ? `${baseName(folder)}/` : '';
      for (const separator of ['/', '\\']) {
        result = result.split(folder + separator).join(prefix);
      }
    }
    return result;
  }
}

function trimSeparator(path: string): string {
  return path.length > 1 ? path.replace(/[\\/]+$/, '') : path;
}

function isSeparator(char: string | undefined): boolean {
  return char === '/' || char === '\\';
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1) || path;
}
