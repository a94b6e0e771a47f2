import * as path from 'node:path';
import type { Disposable } from '../../../core/util/disposable';
import type { Logger } from '../../../core/ports';
import { RunningTurns } from './runningTurns';
import { realOrResolved, refusedFolder, storageOutside, storedBytes } from '../core/storagePolicy';

/** What the workspace service asks the editor; `../vscode/vscodeWorkspaceHost.ts` implements it. */
export interface WorkspaceHost {
  /** Whether the workspace is trusted (false in Restricted Mode). */
  trusted(): boolean;
  onDidGrantTrust(listener: () => void): Disposable;
  /** The workspace folders now (absolute). */
  folders(): readonly string[];
  onDidChangeFolders(listener: () => void): Disposable;
  /** A message to the user (shown once per cause by the service). */
  inform(message: string): void;
  /**
   * Where checkpoint storage may go, in order of preference (the workspace's own storage, then the
   * extension's global storage); the first that lies outside every workspace folder is used.
   */
  storageCandidates(): readonly string[];
  /** The cap on the checkpoint storage (bytes), read at each checkpoint. */
  maxStorageBytes(): number;
  /** The user's home folder. */
  readonly home: string;
}

/** What a store is opened with: the folders that may be checkpointed and where their data goes. */
export interface StorePlan {
  /** Absolute, links resolved, sorted. */
  readonly folders: readonly string[];
  readonly storageDir: string;
}

export interface WorkspaceServiceOptions {
  /** The store's own folder under `storageDir`, whose size is capped. */
  readonly storeSubdir: string;
  /** The storage is measured again before a checkpoint when the last measure is older than this. */
  readonly measureEveryMs?: number;
  readonly now?: () => number;
}

/**
 * What every change-related feature asks about the workspace, answered in one place: whether it is
 * trusted, which folders it has now (added and removed at runtime), which of them may be checkpointed
 * (never the home folder, Desktop, Documents or Downloads), where their storage may live (never inside a
 * workspace folder) and whether the storage is under its cap. It owns the store (`S`): opened on first
 * use for the folders of that moment, opened again when they change, never opened in Restricted Mode.
 */
export class WorkspaceService<S extends Disposable> implements Disposable {
  private current: { readonly key: string; readonly store: Promise<S> } | undefined;
  private readonly told = new Set<string>();
  private measured: { readonly at: number; readonly dir: string; readonly bytes: number } | undefined;
  private readonly listeners = new Set<() => void>();
  private readonly subscriptions: Disposable[];
  private disposed = false;
  /** Every chat's running turn in this window, per folder (which chat, since when). */
  readonly running = new RunningTurns();

  constructor(
    private readonly host: WorkspaceHost,
    private readonly openStore: (plan: StorePlan) => Promise<S>,
    private readonly logger: Logger,
    private readonly options: WorkspaceServiceOptions,
  ) {
    const changed = (): void => this.listeners.forEach((listener) => listener());
    this.subscriptions = [host.onDidGrantTrust(changed), host.onDidChangeFolders(changed)];
  }

  /** Calls `listener` when trust is granted or the folders change: what may be checkpointed changed. */
  onDidChange(listener: () => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /**
   * Where checkpoints go now, or why there are none (the words a turn shows). Refused folders are left
   * out, with a one-time notice each.
   */
  async plan(): Promise<StorePlan | { readonly problem: string }> {
    if (!this.host.trusted()) {
      return { problem: 'the workspace is not trusted (Restricted Mode)' };
    }
    // One wait for every path a Send resolves (each on libuv's threads), not one after another.
    const [home, folderPaths, candidates] = await Promise.all([
      realOrResolved(this.host.home),
      Promise.all(this.host.folders().map(realOrResolved)),
      Promise.all(this.host.storageCandidates().map(realOrResolved)),
    ]);
    const all = [...new Set(folderPaths)].sort();
    if (all.length === 0) {
      return { problem: 'no folder is open' };
    }
    const folders: string[] = [];
    const refused: string[] = [];
    for (const folder of all) {
      const what = refusedFolder(folder, home);
      if (what === undefined) {
        folders.push(folder);
      } else {
        refused.push(`${folder} is ${what}`);
        this.tellOnce(
          `refused:${folder}`,
          `No checkpoints of ${folder}: it is ${what}, too wide to snapshot. Open a project folder to have agent changes listed and undoable; the chat works as before.`,
        );
      }
    }
    if (folders.length === 0) {
      return { problem: `no folder here may be checkpointed (${refused.join('; ')})` };
    }
    const storage = storageOutside(candidates, all);
    if ('problem' in storage) {
      this.tellOnce('storage', `No checkpoints: ${storage.problem}.`);
      return storage;
    }
    if (storage.moved && !this.told.has('moved')) {
      this.told.add('moved');
      this.logger.info(
        `Checkpoints are stored in ${storage.dir}: the workspace's own storage lies inside a workspace folder.`,
      );
    }
    this.running.shareIn(path.join(storage.dir, 'running-turns'));
    return { folders, storageDir: storage.dir };
  }

  /** Where checkpoint storage may go, in order of preference (before the rules above choose). */
  storageCandidates(): readonly string[] {
    return this.host.storageCandidates();
  }

  /** The store for the folders of this moment; rejects with the reason when there may be none. */
  async store(): Promise<S> {
    return this.storeOf(await this.plan());
  }

  /**
   * The store, when a new checkpoint may be taken in it now: rejects with the reason when there may be no
   * store, or the storage is over its cap (measured at most every `measureEveryMs`) — reading, listing and
   * undoing still work then. One look at the workspace for both, as a Send waits for it. `stopped` (a Stop,
   * the checkpoint's time limit) while the storage is measured: no store is opened for it.
   */
  async checkpointStore(stopped?: AbortSignal): Promise<S> {
    const plan = await this.plan();
    if (!('problem' in plan)) {
      await this.underCap(plan);
      stopped?.throwIfAborted();
    }
    return this.storeOf(plan);
  }

  /** The store `plan` names, opened on first use (the one open is closed when it names another). */
  private async storeOf(plan: StorePlan | { readonly problem: string }): Promise<S> {
    if (this.disposed) {
      throw new Error('The workspace service is closed.');
    }
    if ('problem' in plan) {
      this.close();
      throw new Error(plan.problem);
    }
    const key = JSON.stringify([plan.storageDir, plan.folders]);
    if (this.current?.key !== key) {
      this.close();
      const store = this.openStore(plan);
      const opened = { key, store };
      this.current = opened;
      // A store that could not open is opened again next time, not remembered as broken.
      store.catch(() => {
        if (this.current === opened) {
          this.current = undefined;
        }
      });
    }
    return this.current!.store;
  }

  /** Rejects with the reason (told to the user once) when the storage of `plan` is over its cap. */
  private async underCap(plan: StorePlan): Promise<void> {
    const cap = this.host.maxStorageBytes();
    const dir = path.join(plan.storageDir, this.options.storeSubdir);
    const now = (this.options.now ?? Date.now)();
    const stale =
      this.measured === undefined ||
      this.measured.dir !== dir ||
      now - this.measured.at >= (this.options.measureEveryMs ?? 60_000);
    if (stale) {
      this.measured = { at: now, dir, bytes: await storedBytes(dir, cap) };
    }
    if ((this.measured?.bytes ?? 0) > cap) {
      const mb = Math.round(cap / (1024 * 1024));
      const problem = `the checkpoint storage is full (more than ${mb} MB, the setting acpAgents.checkpoints.maxStorageMB)`;
      this.tellOnce(
        'full',
        `Checkpoints have stopped: ${problem}. The chat works; new turns cannot be undone.`,
      );
      throw new Error(problem);
    }
    this.told.delete('full'); // under the cap again: a later overflow is told again
  }

  dispose(): void {
    this.disposed = true;
    this.close();
    this.subscriptions.forEach((subscription) => subscription.dispose());
    this.listeners.clear();
  }

  private close(): void {
    const closing = this.current;
    this.current = undefined;
    void closing?.store.then(
      (store) => store.dispose(),
      () => undefined,
    );
  }

  private tellOnce(cause: string, message: string): void {
    if (!this.told.has(cause)) {
      this.told.add(cause);
      this.logger.warn(message);
      this.host.inform(message);
    }
  }
}
