import { lstat, mkdir, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { isLexicallyWithin, resolveReal } from '../../../core/files/pathConfinement';
import { isSamePath } from '../../../core/platform/pathNames';

/** Branches of chat worktrees live under this prefix: `acp/<name>`. */
export const BRANCH_PREFIX = 'acp/';
/** How many `-2`, `-3` … a name is tried with before giving up. */
const MAX_SUFFIX = 50;
const MAX_NAME = 40;

/** A folder and branch name made from a chat's name: lower case ASCII letters, digits and dashes. */
export function worktreeName(title: string): string {
  const name = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_NAME)
    .replace(/-+$/g, '');
  return name === '' ? 'chat' : name;
}

/** `name`, then `name-2`, `name-3` … (bounded). */
export function* nameCandidates(name: string): Generator<string> {
  yield name;
  for (let suffix = 2; suffix <= MAX_SUFFIX; suffix++) {
    yield `${name}-${suffix}`;
  }
}

/**
 * The folder a repository's chat worktrees go in: the one the user set, else beside the repository,
 * `<parent of the repository>/<its name>.worktrees` — outside the repository, so its `git status` never
 * sees them.
 */
export function worktreesFolder(repositoryRoot: string, setting: string | undefined): string {
  const chosen = setting?.trim();
  if (chosen) {
    return path.resolve(repositoryRoot, chosen);
  }
  return path.join(path.dirname(repositoryRoot), `${path.basename(repositoryRoot)}.worktrees`);
}

/**
 * Makes the folder of a new worktree: `<parent>/<name>` for the first free name, created here (never an
 * existing entry, never through a link: `mkdir` of a name that is a link fails), and checked to be a real
 * folder right under the parent. The parent must lie outside every folder in `outsideOf` (the workspace
 * folders and the repository): a worktree inside one would show up in it.
 */
export async function makeWorktreeFolder(
  parent: string,
  name: string,
  outsideOf: readonly string[],
  taken: (name: string) => Promise<boolean>,
): Promise<{ readonly folder: string; readonly name: string } | { readonly problem: string }> {
  // Where it really is (links resolved, also of the part not made yet), checked before anything is made.
  const wouldBe = await resolveReal(parent);
  for (const root of outsideOf) {
    const realRoot = await resolveReal(root);
    if (isLexicallyWithin(wouldBe, realRoot) || isLexicallyWithin(realRoot, wouldBe)) {
      return {
        problem: `the folder for worktrees, ${wouldBe}, must lie outside ${realRoot} (setting acpAgents.worktrees.folder)`,
      };
    }
  }
  try {
    await mkdir(parent, { recursive: true });
  } catch (error) {
    return { problem: `the folder for worktrees, ${parent}, cannot be made (${errorText(error)})` };
  }
  const realParent = await realpath(parent);
  if (!isSamePath(realParent, wouldBe)) {
    return { problem: `the folder for worktrees, ${parent}, changed while it was made` };
  }
  for (const candidate of nameCandidates(name)) {
    if (await taken(candidate)) {
      continue;
    }
    const folder = path.join(realParent, candidate);
    try {
      await mkdir(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        continue;
      }
      return { problem: `${folder} cannot be made (${errorText(error)})` };
    }
    const entry = await lstat(folder);
    if (!entry.isDirectory() || !isSamePath(await realpath(folder), folder)) {
      return { problem: `${folder} is not a plain folder right under ${realParent}` };
    }
    return { folder, name: candidate };
  }
  return { problem: `every name from ${name} to ${name}-${MAX_SUFFIX} is taken in ${realParent}` };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
