import * as path from 'node:path';
import type { Conversation } from '../../../chat/conversation';
import type { Logger } from '../../../core/ports';
import { planApply } from '../core/applyPlan';
import { applyToFolder, undoApply, type ApplyOutcome } from '../core/applyToFolder';
import { worktreeChanges } from '../core/worktreeChanges';
import { WorktreeError } from '../core/worktreeCreation';
import { worktreeName } from '../core/worktreeFolder';
import type { WorktreeRecord } from '../core/worktreeRecords';
import { commitWorktree } from '../core/worktreeUpkeep';
import type { WorktreeChats } from './worktreeChats';
import type { WorktreeUi } from './worktreeUi';

const UNDO = 'Undo Apply';
const REVIEW = 'Review';
const DISCARD = 'Discard';
const APPLY = 'Apply to Workspace';
const OPEN_WINDOW = 'Open in New Window';
const COMMIT = 'Commit on Its Branch';

/**
 * The user's steps on a chat's worktree: start the chat in one, bring its work back (Apply: a three-way
 * merge into the folder it came from, reviewable and undoable, conflicts in the merge editor), open it
 * in a window, commit on its branch, discard it (asking first when work would be lost), and what to do
 * with it when its chat is deleted.
 */
export class WorktreeActions {
  constructor(
    private readonly worktrees: WorktreeChats,
    private readonly ui: WorktreeUi,
    private readonly logger: Logger,
  ) {}

  /** Starts the empty chat in a new worktree of `folder`'s repository, named as the user says. */
  async create(chat: Conversation, folder: string, name?: string, group?: string): Promise<boolean> {
    if (chat.thread.snapshot().entries.length > 0) {
      throw new WorktreeError('A chat that has started stays where it is: start a new chat in a worktree.');
    }
    const chosen =
      name ??
      (await this.ui.ask(
        'Name the worktree and its branch (acp/<name>)',
        `chat-${chat.id.slice(0, 6)}`,
        (text) => (worktreeName(text) === 'chat' && text.trim() !== 'chat' ? 'Use letters or digits.' : undefined),
      ));
    if (chosen === undefined) {
      return false;
    }
    const created = await this.worktrees.create(chat.id, chosen, folder, group);
    // Its unused session (opened in the workspace folder) goes: the next one opens in the worktree.
    chat.changeAgent(chat.agentId);
    const skipped = created.included.skipped;
    if (skipped.length > 0) {
      void this.ui.inform(
        `Not copied into the worktree: ${skipped.map((file) => `${file.path} (${file.reason})`).join('; ')}.`,
      );
    }
    return true;
  }

  /** Brings the worktree's work into the folder it came from; says what was written, left and conflicted. */
  async apply(chatId: string): Promise<ApplyOutcome | undefined> {
    const applied = await this.worktrees.step(chatId, 'Applying…', async (record, git) => {
      const plan = await planApply(git, record, this.worktrees.scratchDir);
      if (!plan) {
        return undefined;
      }
      const outcome = await applyToFolder(plan, record.repositoryRoot, this.ui.writer);
      if (outcome.written.length > 0 || plan.files.length === 0) {
        await this.worktrees.applied(chatId, plan.worktreeTree);
      }
      return { outcome, record };
    });
    void this.worktrees.refresh(chatId);
    if (!applied) {
      void this.ui.inform('Nothing to apply: the worktree holds nothing new.');
      return undefined;
    }
    const { outcome, record } = applied;
    const conflicts = outcome.written.filter((file) => file.conflict !== undefined);
    if (conflicts.length > 0) {
      await this.ui.openConflicts(conflicts);
    }
    void this.report(outcome, record.repositoryRoot, path.basename(record.folder), conflicts.length);
    return outcome;
  }

  private async report(outcome: ApplyOutcome, root: string, name: string, conflicts: number): Promise<void> {
    const parts = [`Applied ${count(outcome.written.length, 'file')} from ${name}`];
    if (conflicts > 0) {
      parts.push(`${count(conflicts, 'file')} with conflicts (opened in the merge editor)`);
    }
    if (outcome.leftAlone.length > 0) {
      parts.push(`left alone: ${outcome.leftAlone.map((file) => `${file.rel} (${file.reason})`).join('; ')}`);
    }
    const choice = await this.ui.inform(`${parts.join('; ')}.`, outcome.written.length > 0 ? [REVIEW, UNDO] : []);
    if (choice === REVIEW) {
      await this.ui.showApplied(`Applied from ${name}`, outcome.written);
    } else if (choice === UNDO) {
      const undone = await undoApply(outcome.written, root, this.ui.writer);
      const left = undone.leftAlone.map((file) => `${file.rel} (${file.reason})`).join('; ');
      void this.ui.inform(`Undid ${count(undone.undone, 'file')}${left ? `; left as they are: ${left}` : ''}.`);
    }
  }

  /** Commits everything in the worktree on its branch, with a message the user gives. */
  async commit(chatId: string, suggestion: string): Promise<string | undefined> {
    const message = await this.ui.ask('Commit message', suggestion, (text) =>
      text.trim() === '' ? 'Write a message.' : undefined,
    );
    if (message === undefined) {
      return undefined;
    }
    const commit = await this.worktrees.step(chatId, 'Committing…', (record, git) =>
      commitWorktree(git, record, message.trim()),
    );
    void this.worktrees.refresh(chatId);
    const branch = this.worktrees.record(chatId)?.branch ?? '';
    void this.ui.inform(commit ? `Committed ${commit.slice(0, 8)} on ${branch}.` : 'Nothing to commit.');
    return commit;
  }

  /**
   * Removes the worktree and its branch — at once when nothing unapplied would be lost, else only after
   * the user says so. Resolves whether it was removed.
   */
  async discard(chatId: string, options: { readonly forget: boolean } = { forget: false }): Promise<boolean> {
    return (await this.discardEach([chatId], options)) === 1;
  }

  /**
   * Removes the worktrees and branches of `chatIds` ("Discard the rest" of a group): one question, naming
   * each worktree whose unapplied work would be lost, and none when nothing would be. Resolves with how
   * many were removed.
   */
  async discardEach(chatIds: readonly string[], options: { readonly forget: boolean } = { forget: false }): Promise<number> {
    const records = chatIds.flatMap((chatId) => this.worktrees.record(chatId) ?? []);
    if (records.length === 0) {
      return 0;
    }
    const losses = await Promise.all(records.map((record) => this.loss(record)));
    const lost = records.flatMap((record, i) => (losses[i] === undefined ? [] : [{ record, loss: losses[i] }]));
    if (lost.length > 0) {
      const [only] = records;
      const message =
        records.length === 1 && only
          ? `Discard the worktree ${path.basename(only.folder)} and its branch ${only.branch}?`
          : `Discard ${records.length} worktrees and their branches?`;
      const detail =
        records.length === 1
          ? lost[0]!.loss
          : lost.map(({ record, loss }) => `${path.basename(record.folder)}: ${loss}`).join('\n');
      if ((await this.ui.confirm(message, detail, [DISCARD])) !== DISCARD) {
        return 0;
      }
    }
    let removed = 0;
    for (const record of records) {
      await this.worktrees.discard(record.chatId, options);
      removed++;
    }
    return removed;
  }

  /** What a Discard of the worktree would lose, in words; undefined: nothing unapplied. */
  private async loss(record: WorktreeRecord): Promise<string | undefined> {
    const changes = await worktreeChanges(await this.worktrees.git(), record, this.worktrees.scratchDir).catch(
      (error: unknown) => {
        this.logger.warn(`Could not read ${record.folder} before discarding it: ${String(error)}`);
        return undefined;
      },
    );
    if (changes === undefined) {
      return 'Its changes could not be read: whatever it holds will be lost.';
    }
    return changes.unapplied
      ? `It holds ${count(changes.files.length, 'changed file')} that ${changes.files.length === 1 ? 'was never applied: it' : 'were never applied: they'} will be lost.`
      : undefined;
  }

  async openWindow(chatId: string): Promise<void> {
    const record = this.worktrees.record(chatId);
    if (record) {
      await this.ui.openWindow(record.folder);
    }
  }

  async showChanges(chatId: string): Promise<void> {
    const changes = await this.worktrees.refresh(chatId);
    const record = this.worktrees.record(chatId);
    if (!record || !changes) {
      return;
    }
    if (changes.files.length === 0) {
      void this.ui.inform(`${path.basename(record.folder)} holds no changes.`);
      return;
    }
    await this.ui.showChanges(record, changes.files);
  }

  /**
   * A chat with a worktree was deleted: the user says what becomes of its work (Apply, open it, commit,
   * discard); dismissed, the worktree stays and is offered for cleanup later.
   */
  async chatDeleted(chatId: string, title: string): Promise<void> {
    const record = this.worktrees.record(chatId);
    if (!record || record.discarded) {
      await this.worktrees.forget(chatId);
      return;
    }
    const choice = await this.ui.inform(
      `The deleted chat “${title}” worked in the worktree ${path.basename(record.folder)} (${record.branch}). What becomes of it?`,
      [APPLY, OPEN_WINDOW, COMMIT, DISCARD],
    );
    if (choice === APPLY) {
      await this.apply(chatId);
    } else if (choice === OPEN_WINDOW) {
      await this.openWindow(chatId);
    } else if (choice === COMMIT) {
      await this.commit(chatId, title);
    }
    if (choice === DISCARD) {
      await this.discard(chatId, { forget: true });
    }
  }
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}
