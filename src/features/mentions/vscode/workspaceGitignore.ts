import * as path from 'node:path';
import * as vscode from 'vscode';
import { IgnoreFileRules, type IgnoreFile } from '../chat/ignoreFileRules';

/** The most `.gitignore` files read in one workspace folder (a bound on the reads per listing). */
const MAX_IGNORE_FILES = 2_000;

/** The ignore files whose change changes what the file index lists, as a watcher glob. */
export const IGNORE_FILES_GLOB = '**/{.gitignore,.git/info/exclude}';

/**
 * For a folder git cannot list (see `listGitFiles`): reads a workspace folder's `.git/info/exclude` and every `.gitignore` in it (outside `exclude`,
 * the settings' excludes) into one set of rules. A file that cannot be read counts as empty: a
 * broken ignore file shows more files in the picker, it never hides the workspace.
 */
export async function readGitignoreRules(
  folder: vscode.WorkspaceFolder,
  exclude: string | undefined,
): Promise<IgnoreFileRules> {
  const [infoExclude, gitignoreUris] = await Promise.all([
    readText(vscode.Uri.joinPath(folder.uri, '.git', 'info', 'exclude')),
    vscode.workspace.findFiles(
      new vscode.RelativePattern(folder, '**/.gitignore'),
      exclude === undefined ? null : new vscode.RelativePattern(folder, exclude),
      MAX_IGNORE_FILES,
    ),
  ]);
  const gitignores = await Promise.all(
    gitignoreUris.map(async (uri): Promise<IgnoreFile> => {
      const dir = path.posix.dirname(relativePath(folder, uri));
      return { dir: dir === '.' ? '' : dir, content: (await readText(uri)) ?? '' };
    }),
  );
  return new IgnoreFileRules(infoExclude, gitignores, {
    // As git's core.ignorecase defaults on these systems' file systems.
    ignoreCase: process.platform === 'win32' || process.platform === 'darwin',
  });
}

/** `uri`'s path inside `folder`, with `/` separators (as gitignore patterns are written). */
export function relativePath(folder: vscode.WorkspaceFolder, uri: vscode.Uri): string {
  return path.posix.relative(folder.uri.path, uri.path);
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}
