import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { isLexicallyWithin } from '../../../core/files/pathConfinement';
import { findOnPathAsync, type Environment } from '../../../core/connection/spawnProgram';

/**
 * The most files the picker indexes per folder (a bound on memory and on `findFiles`'s time): a
 * 250,000-file monorepo fits; ranked by the chat layer's PathRanker, a keystroke stays within a frame or two.
 */
export const MAX_INDEXED_FILES = 250_000;

export interface GitFileListOptions {
  /** The git executable, an absolute path (see `findGit`). */
  readonly git: string;
  /** The folder to list (a workspace folder); paths come back relative to it. */
  readonly folder: string;
  /** Stops git (a timeout, the index being disposed); the listing then fails. */
  readonly signal: AbortSignal;
  /** The most files kept; git is stopped once that many are accepted. */
  readonly maxFiles: number;
  /** Whether to keep a path (`/` separators, relative to `folder`); the settings' excludes. */
  readonly accept: (relativePath: string) => boolean;
}

/**
 * The files git does not ignore under `folder`, tracked or not (`git ls-files -co --exclude-standard`):
 * git applies every `.gitignore`, and `.git/info/exclude` (a linked worktree's too) itself. The output is
 * read as a stream and git is stopped at `maxFiles`, so a folder larger than that costs a bounded list. Undefined when git cannot answer (not a
 * repository, a repository git refuses, aborted): the caller falls back to reading the ignore files.
 */
export function listGitFiles(options: GitFileListOptions): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    const files: string[] = [];
    let rest = '';
    let full = false;
    const child = spawn(
      options.git,
      // A repository's own config could name an fsmonitor program: never run it. No global
      // excludes file, as VS Code's search by default (and as the fallback reads none).
      [
        '--no-pager',
        '-c',
        'core.fsmonitor=false',
        '-c',
        'core.excludesFile=',
        'ls-files',
        '-z',
        '--cached',
        '--others',
        '--exclude-standard',
      ],
      {
        cwd: options.folder,
        env: gitEnvironment(),
        stdio: ['ignore', 'pipe', 'ignore'],
        windowsHide: true,
        signal: options.signal,
      },
    );
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (full) {
        return;
      }
      const entries = (rest + chunk).split('\0');
      rest = entries.pop() ?? '';
      for (const entry of entries) {
        // A nested repository is listed as its folder (`sub/`), never as files.
        if (entry.length > 0 && !entry.endsWith('/') && options.accept(entry)) {
          files.push(entry);
          if (files.length >= options.maxFiles) {
            full = true;
            child.kill();
            return;
          }
        }
      }
    });
    child.on('error', () => resolve(undefined));
    child.on('close', (code) => resolve(full || code === 0 ? files : undefined));
  });
}

/**
 * The git on PATH as an absolute path, looked for only in PATH's absolute entries and never inside
 * `folder`: a `git` committed to the workspace must not run. Undefined when there is none.
 */
export async function findGit(env: Environment, folder: string): Promise<string | undefined> {
  // Windows spells it `Path` as often as not.
  const pathKey = Object.keys(env).find((key) => key.toUpperCase() === 'PATH') ?? 'PATH';
  const absoluteEntries = (env[pathKey] ?? '')
    .split(path.delimiter)
    .filter((entry) => path.isAbsolute(entry) && !isLexicallyWithin(entry, folder));
  const git = await findOnPathAsync('git', { ...env, [pathKey]: absoluteEntries.join(path.delimiter) });
  return git !== undefined && path.isAbsolute(git) && !isLexicallyWithin(git, folder) ? git : undefined;
}

/** The host's environment without inherited GIT_* variables (a hook's would point at another repository). */
function gitEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^GIT_/i.test(key)) {
      env[key] = value;
    }
  }
  return { ...env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
}
