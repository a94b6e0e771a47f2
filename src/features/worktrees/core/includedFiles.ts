import { constants } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import * as path from 'node:path';
import { checkWriteTarget } from '../../../core/files/pathConfinement';
import { splitNul } from '../../../core/git/safeGit';
import { hostPlatform } from '../../../core/platform/platform';
import type { RepoGit } from './repoGit';
import { placeOf, type Repository } from './repository';

/** What is copied into a new worktree at most: a few settings files, never a build folder. */
export interface IncludeBounds {
  readonly maxFiles: number;
  readonly maxBytes: number;
}

export const INCLUDE_BOUNDS: IncludeBounds = { maxFiles: 200, maxBytes: 20 * 1024 * 1024 };

export interface IncludeOutcome {
  /** Relative (`/`-separated) paths copied. */
  readonly copied: readonly string[];
  /** Files that matched and were not copied, and why. */
  readonly skipped: readonly { readonly path: string; readonly reason: string }[];
}

/**
 * Copies the files the user listed (`acpAgents.worktrees.include`: globs relative to the repository,
 * such as `.env` or `config/*.local.json`) from the repository into a new worktree — the files git does
 * not track, which a checkout does not bring (`.env`). Git lists them (pathspec globs, its own walk);
 * each is copied only as a regular file reached through real folders on both sides (no link followed,
 * none written through), never over an existing file, within `bounds`.
 */
export async function copyIncludedFiles(
  git: RepoGit,
  repository: Repository,
  worktree: string,
  patterns: readonly string[],
  bounds: IncludeBounds = INCLUDE_BOUNDS,
): Promise<IncludeOutcome> {
  const pathspecs = patterns.map((pattern) => pattern.trim()).filter((pattern) => pattern !== '');
  if (pathspecs.length === 0) {
    return { copied: [], skipped: [] };
  }
  const listed = await git.run(
    placeOf(repository),
    ['ls-files', '-z', '--others', '--', ...pathspecs.map((pattern) => `:(glob,top)${pattern}`)],
    { maxStdoutBytes: 4 * 1024 * 1024 },
  );
  const copied: string[] = [];
  const skipped: { path: string; reason: string }[] = [];
  let bytes = 0;
  for (const rel of splitNul(listed.stdout)) {
    if (copied.length >= bounds.maxFiles) {
      skipped.push({ path: rel, reason: `more than ${bounds.maxFiles} files matched` });
      continue;
    }
    const outcome = await copyOne(repository.root, worktree, rel, {
      left: bounds.maxBytes - bytes,
      max: bounds.maxBytes,
    });
    if (typeof outcome === 'number') {
      copied.push(rel);
      bytes += outcome;
    } else {
      skipped.push({ path: rel, reason: outcome.reason });
    }
  }
  return { copied, skipped };
}

/** Copies one file; its size, or why not. */
async function copyOne(
  root: string,
  worktree: string,
  rel: string,
  bytes: { readonly left: number; readonly max: number },
): Promise<number | { readonly reason: string }> {
  const parts = rel.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) {
    return { reason: 'its name is not a plain relative path' };
  }
  const source = path.join(root, ...parts);
  const target = path.join(worktree, ...parts);
  const from = await checkWriteTarget(source, root);
  if (from.kind !== 'in-place') {
    return { reason: from.kind === 'refused' ? from.reason : `it is ${from.what}` };
  }
  const to = await checkWriteTarget(target, worktree);
  if (to.kind !== 'in-place') {
    return {
      reason: to.kind === 'refused' ? `in the worktree, ${to.reason}` : `in the worktree, it is ${to.what}`,
    };
  }
  const noFollow = hostPlatform().os === 'win32' ? 0 : constants.O_NOFOLLOW;
  const input = await open(source, constants.O_RDONLY | noFollow).catch(() => undefined);
  if (!input) {
    return { reason: 'it could not be opened as a file' };
  }
  try {
    const info = await input.stat();
    if (!info.isFile()) {
      return { reason: 'it is not a regular file' };
    }
    if (info.size > bytes.left) {
      return { reason: `the files to copy would be larger than ${Math.round(bytes.max / (1024 * 1024))} MB` };
    }
    const content = await input.readFile();
    await mkdir(path.dirname(target), { recursive: true });
    const output = await open(
      target,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | noFollow,
      info.mode & 0o777,
    );
    try {
      await output.writeFile(content);
    } finally {
      await output.close();
    }
    return content.length;
  } catch (error) {
    return {
      reason:
        (error as NodeJS.ErrnoException).code === 'EEXIST' ? 'the worktree has it already' : String(error),
    };
  } finally {
    await input.close();
  }
}
