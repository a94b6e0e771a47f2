import type { FileChangeStat } from '../core/types';
import type { Thread } from '../../../core/thread/thread';
import type { FileChangeDecision, TurnChanges, TurnFileChange } from '../../../core/thread/threadTypes';
import { MAX_KEPT_HUNKS } from '../../../protocol/thread';
import type { RestoreFailure } from './workspaceChanges';

/** On the card, for a file whose bytes before the turn the checkpoint is unsure of. */
export const UNSURE_BEFORE =
  'It was being written while the checkpoint before the turn read it, so its content then is not known: Undo leaves it.';

/** On the card, for a file the checkpoint before the turn could not record (it may have existed). */
export const UNRECORDED_BEFORE =
  'The checkpoint before the turn could not record it (unreadable, too large, a link, or changed before it was read), so its content then is not known: Undo leaves it.';

/** How many file names a confirmation lists before "and N more". */
const LISTED_FILES = 12;

/*
 * What the change card says about each file — decisions, problems — and the words of its dialogs:
 * pure helpers of the change review.
 */

/** Marks files of a turn's card kept or undone. */
export function decide(
  thread: Thread,
  turnId: string,
  files: readonly TurnFileChange[],
  decision: FileChangeDecision,
): void {
  const changes = thread.turn(turnId)?.changes;
  if (!changes || files.length === 0) {
    return;
  }
  const paths = new Set(files.map((file) => file.path));
  thread.updateTurn(turnId, {
    changes: {
      ...changes,
      files: changes.files.map((file) => (paths.has(file.path) ? { ...file, decision } : file)),
    },
  });
}

/** A file's counts on the card after part of its change was undone (its lines added and removed now). */
export function recount(
  thread: Thread,
  turnId: string,
  path: string,
  counts: { readonly added: number; readonly removed: number },
): void {
  const changes = thread.turn(turnId)?.changes;
  if (!changes) {
    return;
  }
  thread.updateTurn(turnId, {
    changes: {
      ...changes,
      files: changes.files.map((file) =>
        file.path === path ? { ...file, added: counts.added, removed: counts.removed } : file,
      ),
    },
  });
}

/**
 * Notes that the user kept one change (`key`) of `path` in the editor: it is part of the card's state, so it
 * is journaled with the chat and stays kept after a reload.
 */
export function noteKept(thread: Thread, turnId: string, path: string, key: string): void {
  const changes = thread.turn(turnId)?.changes;
  const file = changes?.files.find((candidate) => candidate.path === path);
  if (!changes || !file) {
    return;
  }
  if ((file.keptHunks?.length ?? 0) >= MAX_KEPT_HUNKS) {
    throw new Error(
      `${file.relativePath} has too many changes kept one at a time: keep the rest on the change card.`,
    );
  }
  const keptHunks = [...(file.keptHunks ?? []), key];
  thread.updateTurn(turnId, {
    changes: {
      ...changes,
      files: changes.files.map((entry) => (entry === file ? { ...entry, keptHunks } : entry)),
    },
  });
}

/** Shows on the card why a file was left as it is; a file put back loses its old problem. */
export function markProblems(thread: Thread, turnId: string, failures: readonly RestoreFailure[]): void {
  const changes = thread.turn(turnId)?.changes;
  if (!changes) {
    return;
  }
  const why = new Map(failures.map((failure) => [failure.path, failure.reason]));
  thread.updateTurn(turnId, {
    changes: {
      ...changes,
      files: changes.files.map((file) => {
        const reason = why.get(file.path);
        if (reason !== undefined) {
          return { ...file, problem: `Left alone: ${reason}.` };
        }
        if (file.decision === 'undone' && file.problem !== undefined) {
          const { problem: _dropped, ...rest } = file;
          return rest;
        }
        return file;
      }),
    },
  });
}

/** The files the user has not decided on yet. */
export function pendingOf(files: readonly TurnFileChange[]): TurnFileChange[] {
  return files.filter((file) => file.decision === 'pending');
}

export function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) {
    return a === b;
  }
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
    Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  );
}

export function encode(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

export function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}

export function restoreVerb(kind: FileChangeStat['kind']): string {
  switch (kind) {
    case 'created':
      return 'deleted again';
    case 'deleted':
      return 'brought back';
    case 'modified':
      return 'restored';
    default: {
      const unknown: never = kind;
      return String(unknown);
    }
  }
}

/** A bounded list of file names for a confirmation's detail. */
export function describe<T>(items: readonly T[], name: (item: T) => string): string {
  const shown = items.slice(0, LISTED_FILES).map(name);
  const more = items.length - shown.length;
  return [...shown, ...(more > 0 ? [`… and ${more} more`] : [])].join('\n');
}

/** The turn's change list from `files`, keeping what the user already decided per file and hunk (`previous`). */
export function turnChangesOf(
  files: readonly FileChangeStat[],
  previous: TurnChanges | undefined,
  options: Pick<TurnChanges, 'live' | 'afterCheckpointId' | 'coverage'> & {
    readonly untracked: readonly string[];
    readonly relativePath: (path: string) => string;
  },
): TurnChanges {
  const before = new Map(previous?.files.map((file) => [file.path, file]));
  return {
    files: files.map((file) => ({
      path: file.path,
      relativePath: options.relativePath(file.path),
      kind: file.kind,
      added: file.added,
      removed: file.removed,
      ...(file.binary ? { binary: true } : {}),
      // Unsure before bytes: no Undo (as for a file that may have existed), and the card says why.
      ...(file.beforeUnknown || file.unsure || file.unrecorded ? { beforeUnknown: true } : {}),
      ...(file.unsure ? { problem: UNSURE_BEFORE } : file.unrecorded ? { problem: UNRECORDED_BEFORE } : {}),
      ...(file.link ? { link: { target: file.link.target, outside: file.link.outside } } : {}),
      decision: before.get(file.path)?.decision ?? 'pending',
      ...(before.get(file.path)?.keptHunks ? { keptHunks: before.get(file.path)?.keptHunks } : {}),
    })),
    live: options.live,
    coverage: options.coverage,
    ...(options.afterCheckpointId !== undefined ? { afterCheckpointId: options.afterCheckpointId } : {}),
    ...(options.untracked.length > 0 ? { untracked: [...options.untracked] } : {}),
  };
}

/** The recorded changes of turn `turnId` and the checkpoint before it (an error when there are none). */
export function changesOf(thread: Thread, turnId: string): { checkpointId: string; changes: TurnChanges } {
  const turn = thread.turn(turnId);
  if (!turn?.changes || turn.checkpointId === undefined) {
    throw new Error('This turn has no recorded changes.');
  }
  return { checkpointId: turn.checkpointId, changes: turn.changes };
}

/** Asks before an Undo loses what was edited after the agent's turn (`edited`); true to go on. */
export async function undoDespiteEdits(
  workspace: { confirm(message: string, detail: string, action: string): Promise<boolean> },
  edited: readonly TurnFileChange[],
): Promise<boolean> {
  if (edited.length === 0) {
    return true;
  }
  return workspace.confirm(
    `${edited.length} ${plural(edited.length, 'file')} changed after the agent's turn. Undo anyway and lose those edits?`,
    describe(edited, (file) => file.relativePath),
    'Undo anyway',
  );
}
