import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { checkWriteTarget } from '../../../core/files/pathConfinement';
import type { AppliedFile, ApplyPlan } from './applyPlan';

/** A file to write (`bytes`) or delete (undefined). */
export interface FolderWrite {
  readonly path: string;
  readonly bytes: Uint8Array | undefined;
}

/** How Apply reaches the folder: VS Code's editor (open editors follow, unsaved text counts) or the disk. */
export interface FolderWriter {
  /** The file as the user sees it now (an editor's unsaved text wins); undefined when missing. */
  current(path: string): Promise<Uint8Array | undefined>;
  /** Whether an editor holds unsaved text of `path`. */
  unsaved(path: string): boolean;
  /** Writes the files (one change where it can); resolves with those that failed, and why. */
  write(files: readonly FolderWrite[]): Promise<{ readonly path: string; readonly reason: string }[]>;
}

export interface ApplyOutcome {
  /** Written as planned. */
  readonly written: readonly AppliedFile[];
  /** Left as they are, and why: the plan's skipped files and those that changed or could not be written. */
  readonly leftAlone: readonly { readonly rel: string; readonly reason: string }[];
}

/**
 * Writes the plan into the folder `root`, leaving alone every file the user's work would lose: one that
 * changed since the plan read it, one with unsaved text in an editor, one whose path now goes through a
 * link or is a link (nothing is written through a link, nothing outside `root`).
 */
export async function applyToFolder(
  plan: ApplyPlan,
  root: string,
  writer: FolderWriter,
): Promise<ApplyOutcome> {
  const leftAlone = [...plan.skipped];
  const writable: AppliedFile[] = [];
  for (const file of plan.files) {
    const reason = await whyLeftAlone(file, root, writer);
    if (reason === undefined) {
      writable.push(file);
    } else {
      leftAlone.push({ rel: file.rel, reason });
    }
  }
  const failed = new Map(
    (await writer.write(writable.map((file) => ({ path: file.path, bytes: file.content })))).map((f) => [
      f.path,
      f.reason,
    ]),
  );
  const written = writable.filter((file) => !failed.has(file.path));
  for (const file of writable) {
    const reason = failed.get(file.path);
    if (reason !== undefined) {
      leftAlone.push({ rel: file.rel, reason });
    }
  }
  await Promise.all(
    written
      .filter((file) => file.executable && file.content !== undefined)
      .map((file) => chmod(file.path, 0o755).catch(() => undefined)),
  );
  return { written, leftAlone };
}

/** Puts back what Apply wrote, for the files still as Apply left them; the others are named. */
export async function undoApply(
  written: readonly AppliedFile[],
  root: string,
  writer: FolderWriter,
): Promise<{
  readonly undone: number;
  readonly leftAlone: readonly { readonly rel: string; readonly reason: string }[];
}> {
  const leftAlone: { rel: string; reason: string }[] = [];
  const back: AppliedFile[] = [];
  for (const file of written) {
    const reason = await whyLeftAlone({ ...file, before: file.content }, root, writer);
    if (reason === undefined) {
      back.push(file);
    } else {
      leftAlone.push({ rel: file.rel, reason: reason.replace('since Apply began', 'since Apply') });
    }
  }
  const failed = await writer.write(back.map((file) => ({ path: file.path, bytes: file.before })));
  for (const failure of failed) {
    leftAlone.push({
      rel: path.relative(root, failure.path).split(path.sep).join('/'),
      reason: failure.reason,
    });
  }
  return { undone: back.length - failed.length, leftAlone };
}

async function whyLeftAlone(
  file: Pick<AppliedFile, 'path' | 'before'>,
  root: string,
  writer: FolderWriter,
): Promise<string | undefined> {
  const target = await checkWriteTarget(file.path, root);
  if (target.kind === 'refused') {
    return target.reason;
  }
  if (target.kind === 'replace') {
    return `it is ${target.what} in the folder`;
  }
  if (writer.unsaved(file.path)) {
    return 'it has unsaved changes in an editor';
  }
  const now = await writer.current(file.path);
  if (!sameBytes(now, file.before)) {
    return 'it changed since Apply began';
  }
  return undefined;
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  return a === undefined || b === undefined ? a === b : Buffer.compare(a, b) === 0;
}

/** The disk itself (no editor): tests and tools. */
export const diskWriter: FolderWriter = {
  current: (file) => readFile(file).catch(() => undefined),
  unsaved: () => false,
  async write(files) {
    const failures: { path: string; reason: string }[] = [];
    for (const file of files) {
      try {
        if (file.bytes === undefined) {
          await rm(file.path, { force: true });
        } else {
          await mkdir(path.dirname(file.path), { recursive: true });
          await writeFile(file.path, file.bytes);
        }
      } catch (error) {
        failures.push({ path: file.path, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    return failures;
  },
};
