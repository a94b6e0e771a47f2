import type { Disposable } from '../../../core/util/disposable';
import type { FileChangeKind } from '../../../core/git/treeDiff';

/** How a file differs between two points in time. Renames show as a deletion plus a creation. */
export type { FileChangeKind };

/** One file a turn changed, with line counts for the change card. */
export interface FileChangeStat {
  /** Absolute path (native separators). */
  readonly path: string;
  /** The workspace folder it is in (absolute). */
  readonly folder: string;
  readonly kind: FileChangeKind;
  /** Lines added and removed; both 0 for a binary file. */
  readonly added: number;
  readonly removed: number;
  readonly binary: boolean;
  /**
   * Listed as created, but the store did not record it at the checkpoint (it was ignored then): it may
   * have existed. Undo must leave it — deleting it could delete a file the turn did not create.
   */
  readonly beforeUnknown?: boolean;
  /**
   * It was being written while the checkpoint before the turn read it, even when read again: what was
   * stored may be torn or empty. Undo must leave it, and the card says why.
   */
  readonly unsure?: boolean;
  /**
   * It existed before the turn, but the checkpoint could not record it (git could not read it, it was left
   * out then — too large, a link —, or the checkpoint cannot say): never listed as created. Undo leaves it.
   */
  readonly unrecorded?: boolean;
  /**
   * It is a symbolic link (deleted: it was one) naming `target` as written; `outside`: the target is not in
   * the workspace — the agent may have changed files outside it through the link.
   */
  readonly link?: { readonly target: string; readonly outside: boolean };
}

/**
 * How completely a store sees the workspace: `full` records every file (a shadow git repository),
 * `limited` only files it was told about (`note`) — when git is not available.
 */
export type CheckpointCoverage = 'full' | 'limited';

/**
 * Snapshots of the workspace folders, taken before each turn, so that any change an agent makes — through
 * the client or by itself — can be listed and taken back. Checkpoint ids are opaque strings that survive a
 * window reload (they are journaled with the chat). Operations on one folder run one at a time.
 */
export interface CheckpointStore extends Disposable {
  readonly coverage: CheckpointCoverage;
  /** The workspace folders it records (absolute, resolved). */
  readonly folders: readonly string[];
  /** Why coverage is `limited` (e.g. "git was not found on PATH"), for a one-time notice. */
  readonly limitation?: string;
  /** The nested git repositories (and submodules) it leaves out, absolute: changes inside are not seen. */
  untrackedFolders?(): string[];
  /** Records the workspace as it is now. */
  create(): Promise<string>;
  /**
   * Records the workspace ahead of the next `create` (the user is writing a message): `create` then
   * answers with it, without looking again, only while it can prove nothing changed since.
   */
  speculate?(): Promise<void>;
  /** Resolves when every operation it has queued is done (tests, shutdown): nothing writes its storage then. */
  idle?(): Promise<void>;
  /**
   * Files that differ between checkpoint `from` and checkpoint `to` (default: the workspace now). Rejects
   * with `CheckpointNotFoundError` (./errors) for an id this store does not know (another store, pruned).
   */
  changes(from: string, to?: string): Promise<FileChangeStat[]>;
  /**
   * `path`'s bytes at checkpoint `id`; `undefined` when it did not exist then (or is not known). Rejects
   * with `CheckpointNotFoundError` for an unknown id — never `undefined`, which would read as "delete it".
   */
  read(id: string, path: string): Promise<Uint8Array | undefined>;
  /**
   * Tells the store a file is about to change (a tool call names it, the client writes it), with its
   * current bytes when the caller has them (`null`: it does not exist). Only a `limited` store needs it.
   */
  note(path: string, before?: Uint8Array | null): Promise<void>;
}
