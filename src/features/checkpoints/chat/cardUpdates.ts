import type { FileChangeStat } from '../core/types';
import type { Thread } from '../../../core/thread';
import type { FileChangeDecision, TurnFileChange } from '../../../core/threadTypes';
import type { RestoreFailure } from './workspaceChanges';

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
