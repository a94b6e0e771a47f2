import { isLexicallyWithin } from '../../../core/files/pathConfinement';
import type { CheckpointStore, FileChangeStat } from '../core/types';
import type { Disposable } from '../../../core/util/disposable';
import type { Logger } from '../../../core/ports';
import type { Thread } from '../../../core/thread/thread';
import type { TurnChanges, TurnFileChange } from '../../../core/thread/threadTypes';
import { changesOf, decide, encode, noteKept, pendingOf, turnChangesOf } from './cardUpdates';
import type { CheckpointWorkspace } from './checkpointWorkspace';
import { CheckpointTaking, type TakenCheckpoint } from './checkpointTaking';
import { LiveRefresh } from './liveRefresh';
import { putPartBack, type PartialUndo } from './putPartBack';
import { TakeBack } from './takeBack';
import type { WorkspaceChangesPort } from './workspaceChanges';
import { WritesInFlight } from './writesInFlight';

export interface ChangeReviewOptions {
  /** A checkpoint that takes longer is given up: the prompt is not held back for it. */
  readonly checkpointTimeoutMs: number;
  /** File events during a turn are gathered this long before the live list is refreshed. */
  readonly liveRefreshMs: number;
}

const DEFAULTS: ChangeReviewOptions = { checkpointTimeoutMs: 10_000, liveRefreshMs: 300 };

/** On a turn whose checkpoint was taken while it ran: what its list and Undo cannot cover. */
export function lateCheckpointNote(seconds: number): string {
  return `Checkpoint taken ${seconds} s into this turn (a large workspace or a busy machine): changes made before then are not listed, and Undo and Restore go back to how files were then.`;
}

/**
 * Every turn's changes to the workspace, whoever made them: a checkpoint before the turn, a live list
 * while it runs (file events), the final list when it ends (also cancelled, failed or crashed), and
 * Keep / Undo per file or for all, and "restore to before this message". The list is part of the turn
 * (`Turn.changes`), so it is journaled with the chat and survives a reload.
 */
export class ChangeReview implements Disposable {
  private readonly options: ChangeReviewOptions;
  private readonly following = new Set<Disposable>();
  private coverage: TurnChanges['coverage'] = 'full';
  /** When checkpoints are taken: before a prompt, at the warm-up, ahead of Send. */
  private readonly taking: CheckpointTaking;
  private readonly changed: Disposable;
  /** The folders the store records, once it is open: where a running turn's agent may write. */
  private folders: readonly string[] = [];
  private untracked: () => string[] = () => [];
  private readonly takeBack: TakeBack;
  /** Undo's and Restore's writes while they run: a checkpoint is taken once they are done. */
  private readonly writes = new WritesInFlight();
  private disposed = false;

  constructor(
    /** The store of the folders that may be checkpointed now, and whether a checkpoint may be taken. */
    private readonly stores: CheckpointWorkspace,
    private readonly workspace: WorkspaceChangesPort,
    private readonly logger: Logger,
    options: Partial<ChangeReviewOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.takeBack = new TakeBack({
      workspace,
      running: stores.running,
      store: () => this.store(),
      read: (id, path) => this.read(id, path),
      writes: this.writes,
    });
    this.taking = new CheckpointTaking({
      checkpointStore: async (stopped) => this.noted(await stores.checkpointStore(stopped)),
      workspace,
      logger,
      writes: this.writes,
      timeoutMs: this.options.checkpointTimeoutMs,
    });
    // Trust granted or a folder added: the warm-up that found nothing to do (or a smaller store) runs again.
    this.changed = stores.onDidChange(() => this.taking.warmUp(true));
  }

  /** `path`'s bytes at checkpoint `id` (for the diff editor); undefined when it did not exist. */
  async read(id: string, path: string): Promise<Uint8Array | undefined> {
    const store = await this.store();
    if (!store.folders.some((folder) => isLexicallyWithin(path, folder))) {
      // Not "it did not exist": the folder is no longer checkpointed, so nothing is known of it.
      throw new Error(`${path} is not in a checkpointed workspace folder.`);
    }
    return store.read(id, path);
  }

  /** Takes a first checkpoint in the background (the chat opened): see `CheckpointTaking.warmUp`. */
  warmUp(): void {
    this.taking.warmUp();
  }

  /** The user is writing a message: the checkpoint for its Send is taken ahead (`CheckpointTaking`). */
  speculate(): void {
    if (!this.disposed) {
      this.taking.speculate();
    }
  }

  /**
   * Resolves once the checkpoints taken in the background (the warm-up, one ahead of Send) are done, the
   * running turns' notes for other windows are written or removed, and the store has no git work left:
   * whoever removes the storage (a test's cleanup) waits for it, or a write still going on there makes the
   * removal fail.
   */
  async idle(): Promise<void> {
    await Promise.all([this.taking.idle(), this.stores.running.settled()]);
    // A store that cannot open (its storage over the cap, no folder) has nothing queued.
    const store = await this.store().catch(() => undefined);
    await store?.idle?.();
  }

  /** Records the workspace before a prompt (see `CheckpointTaking.take`; `follow` takes a late one up). */
  checkpoint(stopped?: AbortSignal): Promise<TakenCheckpoint> {
    return this.taking.take(stopped);
  }

  /**
   * Follows the running turn `turnId` of `thread`: its changes appear as files change, and the final
   * list is recorded when the turn ends. Disposing stops following (the final list is still recorded).
   * A turn whose checkpoint was still being taken when it started (`late`) gets it once it is done, with a
   * note that what changed before then is not listed, and is followed from then on; one that ended before
   * gets no checkpoint (it would hold what the turn left) and says so.
   */
  follow(
    thread: Thread,
    turnId: string,
    title: () => string = () => 'Another chat',
    late?: Promise<string>,
  ): Disposable {
    const registered = this.stores.running.follow(thread, turnId, title, this.folders);
    const checkpointId = thread.turn(turnId)?.checkpointId;
    if (checkpointId !== undefined) {
      return this.track(thread, turnId, checkpointId, registered);
    }
    return late === undefined ? registered : this.trackWhenTaken(thread, turnId, late, registered);
  }

  /** Follows turn `turnId` once its late checkpoint is taken (see `follow`). */
  private trackWhenTaken(
    thread: Thread,
    turnId: string,
    late: Promise<string>,
    registered: Disposable,
  ): Disposable {
    let current = registered;
    let dropped = false;
    const handle: Disposable = {
      dispose: () => {
        dropped = true;
        current.dispose();
        this.following.delete(handle);
      },
    };
    this.following.add(handle);
    const attach = (id: string): void => {
      const turn = thread.turn(turnId);
      if (this.disposed || turn === undefined) {
        return;
      }
      const seconds = Math.max(1, Math.round((Date.now() - turn.startedAt) / 1000));
      if (turn.status !== 'running' || dropped) {
        // Done after the turn: it holds what the turn left, so there is nothing to list or go back to.
        thread.updateTurn(turnId, {
          checkpointProblem: `No checkpoint for this turn: the one before it took ${seconds} s and was done only after the turn had ended.`,
        });
        handle.dispose();
        return;
      }
      thread.updateTurn(turnId, { checkpointId: id, checkpointProblem: lateCheckpointNote(seconds) });
      current = this.track(thread, turnId, id, registered);
    };
    late.then(attach, (error: unknown) => {
      if (!this.disposed && thread.turn(turnId) !== undefined) {
        const why = error instanceof Error ? error.message : String(error);
        thread.updateTurn(turnId, { checkpointProblem: `No checkpoint for this turn: ${why}` });
      }
      handle.dispose();
    });
    return handle;
  }

  /** Follows turn `turnId` from checkpoint `checkpointId` (see `follow`). */
  private track(thread: Thread, turnId: string, checkpointId: string, registered: Disposable): Disposable {
    let ended = false;
    const live = new LiveRefresh(this.options.liveRefreshMs, async () => {
      const files = await this.listChanges(checkpointId);
      if (!ended && files) {
        this.record(thread, turnId, files, { live: true });
      }
    });
    const watcher = this.workspace.watch(() => live.request());
    const events = thread.onEvent((event) => {
      if (event.type === 'entry_added' || event.type === 'entry_updated') {
        const entry = event.entry;
        if (entry.kind === 'tool_call' && entry.turnId === turnId) {
          // Only a store that cannot see the whole workspace needs telling; the diff's old text is the
          // file as it was, when the agent sends one.
          for (const content of entry.content) {
            if (content.type === 'diff') {
              void this.note(
                content.path,
                content.truncated ? undefined : content.oldText === null ? null : encode(content.oldText),
              );
            }
          }
          for (const location of entry.locations) {
            void this.note(location.path);
          }
        }
      } else if (event.type === 'turn_ended' && event.turn.id === turnId) {
        stop();
        void this.finish(thread, turnId, checkpointId);
      }
    });
    const stop = (): void => {
      ended = true;
      registered.dispose();
      live.dispose();
      watcher.dispose();
      events.dispose();
      this.following.delete(handle);
    };
    const handle: Disposable = { dispose: stop };
    this.following.add(handle);
    return handle;
  }

  /** A turn cut off by a reload or a crash of VS Code: its list is completed from the disk as it is now. */
  async recover(thread: Thread): Promise<void> {
    // No store now (Restricted Mode): the cut-off lists stay as they are until there is one.
    const store = await this.store().catch(() => undefined);
    for (const turn of store ? thread.snapshot().turns : []) {
      if (turn.checkpointId !== undefined && turn.changes?.live && turn.status !== 'running') {
        await this.finish(thread, turn.id, turn.checkpointId);
      }
    }
  }

  /** The change card's actions: `diff` (one file, or all in the multi-file diff editor), `keep`, `undo`. */
  async act(thread: Thread, turnId: string, action: 'diff' | 'keep' | 'undo', path?: string): Promise<void> {
    const { checkpointId, changes } = changesOf(thread, turnId);
    const chosen = path === undefined ? changes.files : changes.files.filter((file) => file.path === path);
    if (path !== undefined && chosen.length === 0) {
      throw new Error(`${this.workspace.relativePath(path)} is not among this turn's changes.`);
    }
    switch (action) {
      case 'diff':
        if (path !== undefined) {
          return this.workspace.openDiff(checkpointId, chosen[0] as TurnFileChange);
        }
        return this.workspace.openChanges(checkpointId, chosen, `Agent changes (${chosen.length} files)`);
      case 'keep':
        decide(thread, turnId, pendingOf(chosen), 'kept');
        return;
      case 'undo':
        if (changes.live || thread.runningTurn !== undefined) {
          // A running turn (this one, or a later one) may be writing these very files.
          throw new Error(
            `${changes.live ? 'The turn is still changing files' : 'A later turn of this chat is running'}: wait for it to end (or stop it) to undo.`,
          );
        }
        return this.takeBack.undo(
          thread,
          turnId,
          checkpointId,
          changes,
          path === undefined ? pendingOf(chosen) : chosen,
        );
      default: {
        const unknown: never = action;
        throw new Error(`Unknown action ${String(unknown)}`);
      }
    }
  }

  /** Undoes part of one file's change of turn `turnId` (a hunk), under Undo's rules (see `putPartBack`). */
  async undoPart(thread: Thread, turnId: string, path: string, part: PartialUndo): Promise<boolean> {
    const { checkpointId, changes } = changesOf(thread, turnId);
    const file = changes.files.find((candidate) => candidate.path === path);
    if (file === undefined || changes.live) {
      throw new Error(`${this.workspace.relativePath(path)} is not among this turn's finished changes.`);
    }
    const deps = {
      workspace: this.workspace,
      running: this.stores.running,
      folders: async () => (await this.store()).folders,
      readBefore: (p: string) => this.read(checkpointId, p),
      writes: this.writes,
    };
    return putPartBack(deps, thread, turnId, file, part);
  }

  /** Notes that one change (`key`) of `path` was kept in the editor: it stays kept after a reload. */
  keepPart(thread: Thread, turnId: string, path: string, key: string): void {
    noteKept(thread, turnId, path, key);
  }

  /**
   * Puts the workspace back to how it was before turn `turnId`, after the user confirms what changes;
   * resolves false when the user declined (nothing was changed).
   */
  restore(thread: Thread, turnId: string): Promise<boolean> {
    return this.takeBack.restore(thread, turnId);
  }

  /** The workspace's store of this moment (opened again when its folders change). */
  private async store(): Promise<CheckpointStore> {
    return this.noted(await this.stores.store());
  }

  /** Notes what `store` records (its coverage, its folders), as the rows and a running turn ask. */
  private noted(store: CheckpointStore): CheckpointStore {
    this.coverage = store.coverage;
    this.folders = store.folders;
    this.untracked = () => store.untrackedFolders?.() ?? [];
    return store;
  }

  /** Tells a store that cannot see the whole workspace about a file about to change (a tool call, our write). */
  async note(path: string, before?: Uint8Array | null): Promise<void> {
    try {
      await (await this.store()).note(path, before);
    } catch (error) {
      this.logger.warn(`Could not note ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The store is the workspace service's: it closes it. */
  dispose(): void {
    this.disposed = true;
    this.changed.dispose();
    for (const handle of [...this.following]) {
      handle.dispose();
    }
  }

  private async finish(thread: Thread, turnId: string, checkpointId: string): Promise<void> {
    try {
      const store = await this.store();
      const afterCheckpointId = await store.create();
      const files = await store.changes(checkpointId, afterCheckpointId);
      this.record(thread, turnId, files, { live: false, afterCheckpointId });
    } catch (error) {
      this.logger.error(
        `Could not list the turn's changes: ${error instanceof Error ? error.message : String(error)}`,
      );
      const previous = thread.turn(turnId)?.changes;
      if (previous) {
        thread.updateTurn(turnId, { changes: { ...previous, live: false } });
      }
    }
  }

  private async listChanges(checkpointId: string): Promise<FileChangeStat[] | undefined> {
    try {
      return await (await this.store()).changes(checkpointId);
    } catch (error) {
      this.logger.warn(`Could not list changes: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  /** Writes the list into the turn, keeping what the user already decided per file. */
  private record(
    thread: Thread,
    turnId: string,
    files: readonly FileChangeStat[],
    state: Pick<TurnChanges, 'live' | 'afterCheckpointId'>,
  ): void {
    const turn = thread.turn(turnId);
    if (!turn || (files.length === 0 && !turn.changes)) {
      return;
    }
    const changes = turnChangesOf(files, turn.changes, {
      ...state,
      coverage: this.coverage,
      untracked: this.untracked().map((folder) => `${this.workspace.relativePath(folder)}/`),
      relativePath: (path) => this.workspace.relativePath(path),
    });
    thread.updateTurn(turnId, { changes });
  }
}
