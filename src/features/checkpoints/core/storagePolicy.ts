import { createHash } from 'node:crypto';
import { lstat, readdir, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { isLexicallyWithin } from '../../../core/files/pathConfinement';

/** Folders whose snapshots would copy a person's whole life, not a project (as Cline refuses them). */
const PERSONAL_FOLDERS = ['Desktop', 'Documents', 'Downloads'] as const;

/** The path with links resolved where it exists (a home under /usr/home, /tmp under /private/tmp). */
export async function realOrResolved(p: string): Promise<string> {
  try {
    return await realpath(p);
  } catch {
    return path.resolve(p);
  }
}

function samePath(a: string, b: string): boolean {
  return isLexicallyWithin(a, b) && isLexicallyWithin(b, a);
}

/**
 * Where the homes of a machine live, by convention: a folder holding one of these holds every user's
 * home (`~/.ssh` included), whoever's home this is (root's is /root, beside /home).
 */
const HOMES_ROOTS = ['/home', '/Users', '/var/home'] as const;

/**
 * What `folder` is when it must not be checkpointed ("your home folder"), or undefined when it may: the
 * home folder, a folder that holds it or any home (`/home`, `/Users`, `C:\Users`, a drive root), its
 * Desktop, Documents or Downloads — snapshotting those copies far more than a project, secrets
 * included. Both paths real (links resolved).
 */
export function refusedFolder(folder: string, home: string): string | undefined {
  if (path.dirname(folder) === folder) {
    return 'the root of a drive';
  }
  if (samePath(folder, home)) {
    return 'your home folder';
  }
  if (isLexicallyWithin(home, folder)) {
    return 'a folder that holds your home folder';
  }
  if (homesRoots(folder).some((homes) => isLexicallyWithin(homes, folder))) {
    return "a folder that holds users' home folders";
  }
  const personal = PERSONAL_FOLDERS.find((name) => samePath(folder, path.join(home, name)));
  return personal === undefined ? undefined : `your ${personal} folder`;
}

/** The conventional homes folders: `C:\Users` on `folder`'s drive on Windows, else `/home`, `/Users` and `/var/home`. */
function homesRoots(folder: string): string[] {
  if (path.sep === '\\') {
    return [path.join(path.parse(folder).root, 'Users')];
  }
  return [...HOMES_ROOTS];
}

/** Where the checkpoint storage goes: a folder outside every workspace folder, or why there is none. */
export type StorageChoice = { readonly dir: string; readonly moved: boolean } | { readonly problem: string };

/**
 * The storage folder each candidate gives: the first as it is, the others a subfolder named by the hash
 * of the first, so that each workspace keeps its own there.
 */
export function storageDirs(candidates: readonly string[]): string[] {
  const first = candidates[0];
  const key = first === undefined ? '' : createHash('sha256').update(first).digest('hex').slice(0, 16);
  return candidates.map((candidate, index) =>
    index === 0 ? candidate : path.join(candidate, 'workspace-checkpoints', key),
  );
}

/**
 * The first storage folder (see `storageDirs`) that lies outside every workspace folder — a shadow
 * repository inside the folder it records would snapshot itself (a home folder opened over Remote-SSH
 * holds VS Code's own storage). All paths real.
 */
export function storageOutside(candidates: readonly string[], folders: readonly string[]): StorageChoice {
  if (candidates.length === 0) {
    return { problem: 'VS Code gave no storage folder for this workspace' };
  }
  for (const [index, dir] of storageDirs(candidates).entries()) {
    if (!folders.some((folder) => isLexicallyWithin(dir, folder) || isLexicallyWithin(folder, dir))) {
      return { dir, moved: index > 0 };
    }
  }
  return {
    problem:
      'the extension has no storage folder outside the workspace folders, and checkpoints are never stored inside them',
  };
}

/**
 * The bytes under `dir` (files as stored, links not followed), counted until `limit` is passed: the
 * walk stops there, so a full storage costs no more than the cap to measure. 0 when `dir` is missing.
 */
export async function storedBytes(dir: string, limit: number): Promise<number> {
  let total = 0;
  const pending = [dir];
  while (pending.length > 0 && total <= limit) {
    const current = pending.pop() as string;
    let names: string[];
    try {
      names = await readdir(current);
    } catch {
      continue; // missing or unreadable: nothing stored there that we could count
    }
    for (const name of names) {
      const entry = path.join(current, name);
      try {
        const stat = await lstat(entry);
        if (stat.isDirectory()) {
          pending.push(entry);
        } else {
          total += stat.size;
        }
      } catch {
        // removed while we walked (git prunes as it goes)
      }
    }
  }
  return total;
}
