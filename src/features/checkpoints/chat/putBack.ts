import { checkWriteTarget, isLexicallyWithin, type WriteTarget } from '../../../core/files/pathConfinement';
import { sameBytes, UNRECORDED_BEFORE } from './cardUpdates';
import type { FileChangeKind } from '../core/types';
import type { RestoredFile, RestoreFailure, WorkspaceChangesPort } from './workspaceChanges';
import type { WritesInFlight } from './writesInFlight';

/** What putting files back did: which are as they were again, and which were left as they are, and why. */
export interface PutBackOutcome {
  readonly restored: readonly string[];
  readonly notRestored: readonly RestoreFailure[];
}

/**
 * What putting files back will do, decided once before anything is asked: the confirmation shows it and
 * the write follows it, so a dialog never promises what the write then does not do.
 */
export interface PutBackPlan {
  /** Written back as they were, or deleted (`bytes` undefined: the turn created them). */
  readonly known: readonly RestoredFile[];
  /** Left as they are, with why: earlier bytes not known, folder gone, a link on the way. */
  readonly leftAlone: readonly RestoreFailure[];
}

/**
 * The plan for putting `files` back as they were at a checkpoint (`read`): a file of a folder no longer
 * checkpointed (`folders`), one whose earlier bytes are not known, and one whose path now leads through a
 * link are left alone; the others are written back or deleted.
 */
export async function planPutBack(
  workspace: WorkspaceChangesPort,
  read: (path: string) => Promise<Uint8Array | undefined>,
  files: readonly FileBefore[],
  folders: readonly string[],
): Promise<PutBackPlan> {
  const inside = (file: FileBefore) => folders.some((folder) => isLexicallyWithin(file.path, folder));
  const { known, unknown } = await originals(read, files.filter(inside));
  const refused = await wouldLeaveAlone(
    workspace,
    known.map((file) => file.path),
  );
  return {
    known: known.filter((file) => !refused.has(file.path)),
    leftAlone: [
      ...unknown,
      ...files
        .filter((file) => !inside(file))
        .map((file) => ({ path: file.path, reason: 'its folder is no longer in the workspace' })),
      ...[...refused].map(([path, reason]) => ({ path, reason })),
    ],
  };
}

/**
 * Writes files back as they were (or deletes those the turn created) — only where that stays inside
 * the workspace. Each path is checked just before the write: a parent folder that is now a link (to
 * outside, or elsewhere) or a file leaves the path alone; a name that is now a link or a FIFO is
 * replaced, never written or deleted through. Everything that can be put back is; the rest is named
 * with the reason. `unknown` are files whose earlier bytes are not known: never touched.
 */
export async function putBack(
  { workspace, writes }: { readonly workspace: WorkspaceChangesPort; readonly writes: WritesInFlight },
  files: readonly RestoredFile[],
  unknown: readonly RestoreFailure[] = [],
): Promise<PutBackOutcome> {
  const notRestored: RestoreFailure[] = [...unknown];
  const allowed: RestoredFile[] = [];
  for (const file of files) {
    const target = await check(workspace, file.path);
    if (target.kind === 'refused') {
      notRestored.push({ path: file.path, reason: target.reason });
    } else {
      allowed.push(target.kind === 'replace' ? { ...file, replace: true } : file);
    }
  }
  const failed = allowed.length === 0 ? [] : await writes.run(() => workspace.restore(allowed));
  const failedPaths = new Set(failed.map((failure) => failure.path));
  return {
    restored: allowed.map((file) => file.path).filter((path) => !failedPaths.has(path)),
    notRestored: [...notRestored, ...failed],
  };
}

/** The paths that would be left alone if put back now, with why — for a confirmation to list. */
export async function wouldLeaveAlone(
  workspace: WorkspaceChangesPort,
  paths: readonly string[],
): Promise<Map<string, string>> {
  const refused = new Map<string, string>();
  for (const path of paths) {
    const target = await check(workspace, path);
    if (target.kind === 'refused') {
      refused.set(path, target.reason);
    }
  }
  return refused;
}

async function check(workspace: WorkspaceChangesPort, path: string): Promise<WriteTarget> {
  const folder = workspace.folderOf(path);
  return folder === undefined
    ? { kind: 'refused', reason: 'it is not in an open workspace folder' }
    : checkWriteTarget(path, folder);
}

/** A changed file as the card lists it: what is known of it before the turn. */
export interface FileBefore {
  readonly path: string;
  readonly kind: FileChangeKind;
  readonly beforeUnknown?: boolean;
  readonly unsure?: boolean;
  readonly unrecorded?: boolean;
  /** The card's note on it. */
  readonly problem?: string;
  /** It is a link (what it names, as written). */
  readonly link?: { readonly target: string };
}

/** Why a file listed as created is not deleted: it was ignored at the checkpoint, so it may have existed. */
const BEFORE_UNKNOWN =
  'it was ignored (by .gitignore) before the turn, so it may have existed then — it is not deleted';

/** Why a file is not put back: it existed, but the checkpoint could not record it. */
const UNRECORDED =
  'the checkpoint before the turn could not record it, so its content then is not known — it is not restored';

/** Why a file is not put back: it was being written while the checkpoint read it. */
const UNSURE =
  'it was being written while the checkpoint read it, so its content then is not known — it is not restored';

/**
 * The files as they were at a checkpoint (`read`; a file the turn created is to be deleted), and those
 * whose earlier bytes are not known — never guessed, never deleted.
 */
export async function originals(
  read: (path: string) => Promise<Uint8Array | undefined>,
  files: readonly FileBefore[],
): Promise<{ known: RestoredFile[]; unknown: RestoreFailure[] }> {
  const known: RestoredFile[] = [];
  const unknown: RestoreFailure[] = [];
  for (const file of files) {
    if (file.link !== undefined && (file.unrecorded || file.beforeUnknown)) {
      // What was there before (a folder, another link) is not known to the checkpoint: never guessed.
      unknown.push({
        path: file.path,
        reason: `it is a link to ${file.link.target} now, and what was there is not recorded`,
      });
      continue;
    }
    // From the card (which keeps the words, not the flags): its problem says which.
    if (file.unrecorded || (file.beforeUnknown && file.problem === UNRECORDED_BEFORE)) {
      unknown.push({ path: file.path, reason: UNRECORDED });
      continue;
    }
    // On the card both read `beforeUnknown`: for a created file it was ignored, for another unsure.
    if (file.unsure || (file.beforeUnknown && file.kind !== 'created')) {
      unknown.push({ path: file.path, reason: UNSURE });
      continue;
    }
    if (file.beforeUnknown) {
      unknown.push({ path: file.path, reason: BEFORE_UNKNOWN });
      continue;
    }
    const bytes = file.kind === 'created' ? undefined : await read(file.path);
    if (bytes === undefined && file.kind !== 'created') {
      unknown.push({ path: file.path, reason: 'its content before the turn is not known' });
    } else {
      known.push({ path: file.path, bytes });
    }
  }
  return { known, unknown };
}

/** Tells the user what was not put back and why (nothing when everything was). */
export function reportNotRestored(
  workspace: WorkspaceChangesPort,
  verb: string,
  outcome: PutBackOutcome,
): void {
  if (outcome.notRestored.length === 0) {
    return;
  }
  const count = outcome.restored.length;
  const listed = describeNotRestored(outcome.notRestored, (p) => workspace.relativePath(p));
  workspace.inform(`${verb} ${count} ${count === 1 ? 'file' : 'files'}. Left alone: ${listed}.`);
}

/** "a.txt (why); b.txt (why)" for a notice, bounded. */
function describeNotRestored(
  failures: readonly RestoreFailure[],
  relativePath: (path: string) => string,
  listed = 12,
): string {
  const shown = failures.slice(0, listed).map((f) => `${relativePath(f.path)} (${f.reason})`);
  const more = failures.length - shown.length;
  return `${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

/** A write or delete error in the user's words (not a bare `EACCES`). */
export function writeErrorInWords(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
    case 'NoPermissions':
      return 'permission denied';
    case 'EROFS':
      return 'the disk is read-only';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EISDIR':
      return 'it is a folder';
    case 'EBUSY':
      return 'the file is in use';
    default:
      return `it could not be written (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** The files whose content now is not what the turn left (`left`): the user or something else edited them. */
export async function editedSince<T extends { readonly path: string }>(
  workspace: WorkspaceChangesPort,
  left: (path: string) => Promise<Uint8Array | undefined>,
  files: readonly T[],
): Promise<T[]> {
  const edited: T[] = [];
  for (const file of files) {
    const [now, then] = await Promise.all([workspace.current(file.path), left(file.path)]);
    if (!sameBytes(now, then)) {
      edited.push(file);
    }
  }
  return edited;
}
