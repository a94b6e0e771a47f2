import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { SessionPlace } from '../../../chat/conversation';
import type { Logger } from '../../../core/ports';
import { Emitter, type Disposable } from '../../../core/util/disposable';
import { SerialQueue } from '../../../core/util/serialQueue';
import type { TreeFileChange } from '../../../core/git/treeDiff';
import type { WorktreeChangesInfo, WorktreeInfo } from '../../../protocol';
import { RepoGit } from '../core/repoGit';
import { worktreeChanges, type WorktreeChanges } from '../core/worktreeChanges';
import { createWorktree, WorktreeError, type CreatedWorktree } from '../core/worktreeCreation';
import { ownerText, type WorktreeLocks } from '../core/worktreeLocks';
import { WorktreeRecords, type WorktreeRecord } from '../core/worktreeRecords';
import { removeWorktree } from '../core/worktreeUpkeep';

/** What the worktree chats need of the editor and the extension. */
export interface WorktreeChatsHost {
  /** False in Restricted Mode: no worktree is made or used. */
  trusted(): boolean;
  workspaceFolders(): readonly string[];
  /** Where the records go (the workspace's storage, beside the chats' journals). */
  readonly storageDir: string;
  /** A folder of ours for scratch objects and the empty hooks folder. */
  readonly workDir: string;
  /** The git executable, found on PATH (undefined: git is not installed). */
  git(): Promise<string | undefined>;
  readonly locks: WorktreeLocks;
  /** `acpAgents.worktrees.folder` and `.include`. */
  settings(): { readonly folder?: string; readonly include: readonly string[] };
  readonly logger: Logger;
}

/** How many of a worktree's changed files are kept listed (the counts cover them all). */
export const MAX_LISTED_FILES = 1_000;

/** What is known of a worktree beside its record: counted changes, a problem, a step under way. */
interface WorktreeState {
  changes?: WorktreeChangesInfo;
  /** The files counted in `changes` (the first `MAX_LISTED_FILES`), for the comparison of a group. */
  files?: readonly TreeFileChange[];
  problem?: string;
  busy?: string;
}

/**
 * The chats that work in worktrees of their own: their records (read back after a reload or a crash),
 * each worktree's place for the chat's session, whether this window may let an agent write it (one
 * window at a time: `WorktreeLocks`), and what it holds. Every step on one worktree runs in its queue.
 */
export class WorktreeChats implements Disposable {
  private readonly records = new Map<string, WorktreeRecord>();
  private readonly states = new Map<string, WorktreeState>();
  private readonly queues = new Map<string, SerialQueue>();
  private readonly store: WorktreeRecords;
  private readonly changeEmitter = new Emitter<string>();
  /** A chat's worktree changed (its id): made, counted, busy, gone. */
  readonly onDidChange = this.changeEmitter.event;
  private repoGit: Promise<RepoGit | undefined> | undefined;
  /** Resolves once the records are read. */
  readonly restored: Promise<void>;

  constructor(private readonly host: WorktreeChatsHost) {
    this.store = new WorktreeRecords(host.storageDir);
    this.restored = this.store.all().then(
      (records) => records.forEach((record) => this.records.set(record.chatId, record)),
      (error: unknown) => host.logger.error(`Could not read the worktree records: ${String(error)}`),
    );
  }

  /** The git of ours for the user's repositories; rejects with the reason when there is none. */
  async git(): Promise<RepoGit> {
    this.repoGit ??= this.host.git().then(
      (git) => (git === undefined ? undefined : new RepoGit(git, path.join(this.host.workDir, 'no-hooks'))),
    );
    const git = await this.repoGit;
    if (!git) {
      this.repoGit = undefined;
      throw new WorktreeError('No worktree: git was not found on PATH.');
    }
    return git;
  }

  record(chatId: string): WorktreeRecord | undefined {
    return this.records.get(chatId);
  }

  /** Every record, also of chats that are gone. */
  allRecords(): WorktreeRecord[] {
    return [...this.records.values()];
  }

  /** The chat's worktree as its header shows it. */
  info(chatId: string): WorktreeInfo | undefined {
    const record = this.records.get(chatId);
    if (!record) {
      return undefined;
    }
    const state = this.states.get(chatId) ?? {};
    return {
      folder: record.folder,
      name: path.basename(record.folder),
      branch: record.branch,
      base: record.baseCommit.slice(0, 8),
      ...(state.changes ? { changes: state.changes } : {}),
      ...(record.discarded ? { problem: 'Discarded: this chat can no longer work in it.' } : {}),
      ...(!record.discarded && state.problem ? { problem: state.problem } : {}),
      ...(state.busy ? { busy: state.busy } : {}),
    };
  }

  /** The worktree's changes as last counted (undefined: not counted yet). */
  changes(chatId: string): { readonly counts: WorktreeChangesInfo; readonly files: readonly TreeFileChange[] } | undefined {
    const state = this.states.get(chatId);
    return state?.changes && { counts: state.changes, files: state.files ?? [] };
  }

  /** Where the chat's agent works: its worktree, and only there. */
  place(chatId: string): SessionPlace | undefined {
    const record = this.records.get(chatId);
    return record && { cwd: record.folder };
  }

  /**
   * Why a prompt to the chat must not go out now: the workspace is not trusted, the worktree was
   * discarded or is gone, or another window lets an agent write it. Taking its lock is what allows this
   * window to write it from then on.
   */
  async refusal(chatId: string): Promise<string | undefined> {
    const record = this.records.get(chatId);
    if (!record) {
      return undefined;
    }
    if (!this.host.trusted()) {
      return 'This chat works in a git worktree, and worktrees are not used in Restricted Mode. Trust the workspace to go on.';
    }
    if (record.discarded) {
      return `This chat's worktree ${path.basename(record.folder)} was discarded, so nothing more can be sent here. Start a new chat.`;
    }
    const problem = await this.usable(record);
    this.setState(chatId, { problem });
    return problem;
  }

  /** Why the worktree cannot be written from this window now (gone; held by another window), or undefined. */
  private async usable(record: WorktreeRecord): Promise<string | undefined> {
    const folder = await stat(record.folder).catch(() => undefined);
    if (!folder?.isDirectory()) {
      return `This chat's worktree ${record.folder} is gone. Start a new chat, or make the folder again with git.`;
    }
    const hold = await this.host.locks.hold(record.folder);
    return hold.held
      ? undefined
      : `This chat's worktree is in use in another window (${ownerText(hold.owner)}): send from that window.`;
  }

  /**
   * Makes a new worktree for `chatId` (an empty chat) from `folder`'s repository and records it before the
   * chat uses it; this window holds it from then on.
   */
  async create(chatId: string, name: string, folder: string, group?: string): Promise<CreatedWorktree> {
    if (!this.host.trusted()) {
      throw new WorktreeError('No worktree in Restricted Mode: trust the workspace first.');
    }
    if (this.records.has(chatId)) {
      throw new WorktreeError('This chat works in a worktree already.');
    }
    const git = await this.git();
    this.setState(chatId, { busy: 'Making the worktree…' });
    try {
      const settings = this.host.settings();
      const created = await createWorktree(git, {
        chatId,
        name,
        folder,
        include: settings.include,
        workspaceFolders: this.host.workspaceFolders(),
        ...(settings.folder === undefined ? {} : { worktreesFolder: settings.folder }),
        ...(group === undefined ? {} : { group }),
      });
      await this.host.locks.hold(created.record.folder);
      await this.save(created.record);
      return created;
    } finally {
      this.setState(chatId, { busy: undefined });
    }
  }

  /** Counts the worktree's changes again (after a turn, a step); failures are logged, not thrown. */
  refresh(chatId: string): Promise<WorktreeChanges | undefined> {
    const record = this.records.get(chatId);
    if (!record || record.discarded) {
      return Promise.resolve(undefined);
    }
    return this.queue(chatId).run(async () => {
      try {
        const changes = await worktreeChanges(await this.git(), record, this.scratchDir);
        this.setState(chatId, {
          changes: {
            files: changes.files.length,
            added: changes.added,
            removed: changes.removed,
            unapplied: changes.unapplied,
          },
          files: changes.files.slice(0, MAX_LISTED_FILES),
          problem: undefined,
        });
        return changes;
      } catch (error) {
        this.host.logger.warn(`Could not count the changes of ${record.folder}: ${String(error)}`);
        this.setState(chatId, { problem: await this.usable(record) });
        return undefined;
      }
    });
  }

  /** Runs a step on the chat's worktree in its queue, its name shown meanwhile ("Applying…"). */
  step<T>(chatId: string, busy: string, work: (record: WorktreeRecord, git: RepoGit) => Promise<T>): Promise<T> {
    const record = this.records.get(chatId);
    if (!record) {
      return Promise.reject(new WorktreeError('This chat does not work in a worktree.'));
    }
    return this.queue(chatId).run(async () => {
      this.setState(chatId, { busy });
      try {
        return await work(record, await this.git());
      } finally {
        this.setState(chatId, { busy: undefined });
      }
    });
  }

  /** Records that the worktree's tree `tree` was applied: nothing of it is lost by a Discard now. */
  async applied(chatId: string, tree: string): Promise<void> {
    const record = this.records.get(chatId);
    if (record) {
      await this.save({ ...record, appliedTree: tree });
    }
  }

  /**
   * Removes the chat's worktree and its branch. The chat keeps its record as discarded while it exists
   * (its prompts are refused); `forget` drops the record too (the chat is gone).
   */
  async discard(chatId: string, options: { readonly forget: boolean }): Promise<void> {
    await this.step(chatId, 'Discarding…', async (record, git) => {
      await removeWorktree(git, record);
      this.host.locks.release(record.folder);
    });
    const record = this.records.get(chatId);
    if (record && options.forget) {
      await this.forget(chatId);
    } else if (record) {
      await this.save({ ...record, discarded: true });
    }
  }

  /** Drops the record of a chat that is gone, leaving its worktree as it is. */
  async forget(chatId: string): Promise<void> {
    const record = this.records.get(chatId);
    this.records.delete(chatId);
    this.states.delete(chatId);
    if (record) {
      this.host.locks.release(record.folder);
    }
    await this.store.delete(chatId);
    this.changeEmitter.fire(chatId);
  }

  /** Where scratch snapshots are made. */
  get scratchDir(): string {
    return path.join(this.host.workDir, 'scratch');
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }

  private async save(record: WorktreeRecord): Promise<void> {
    await this.store.save(record);
    this.records.set(record.chatId, record);
    this.changeEmitter.fire(record.chatId);
  }

  private setState(chatId: string, patch: Partial<WorktreeState>): void {
    const state = { ...this.states.get(chatId), ...patch };
    for (const key of Object.keys(patch) as (keyof WorktreeState)[]) {
      if (patch[key] === undefined) {
        delete state[key];
      }
    }
    this.states.set(chatId, state);
    this.changeEmitter.fire(chatId);
  }

  private queue(chatId: string): SerialQueue {
    let queue = this.queues.get(chatId);
    if (!queue) {
      queue = new SerialQueue();
      this.queues.set(chatId, queue);
    }
    return queue;
  }
}
