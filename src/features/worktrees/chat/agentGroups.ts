import { randomUUID } from 'node:crypto';
import type { ChatContext } from '../../../chat/chatContribution';
import type { Conversation } from '../../../chat/conversation';
import { isLexicallyWithin } from '../../../core/files/pathConfinement';
import type { Logger } from '../../../core/ports';
import { Emitter, type Disposable } from '../../../core/util/disposable';
import { SerialQueue } from '../../../core/util/serialQueue';
import { WorktreeError } from '../core/worktreeCreation';
import {
  failureText,
  GROUP_SIZE,
  groupPrompt,
  WorktreeGroupStore,
  type GroupMember,
  type WorktreeGroup,
} from '../core/worktreeGroups';
import { changedPaths, comparisonRows, type ComparisonDiagnostics, type RunRow } from './groupComparison';
import type { WorktreeActions } from './worktreeActions';
import type { WorktreeChats } from './worktreeChats';
import type { WorktreeUi } from './worktreeUi';

/** An agent the user can ask. */
export interface GroupAgent {
  readonly id: string;
  readonly label: string;
}

export interface AgentGroupsDeps {
  readonly worktrees: WorktreeChats;
  readonly actions: WorktreeActions;
  readonly ui: WorktreeUi;
  readonly logger: Logger;
  /** Where the groups are kept (the workspace's storage, beside the worktree records). */
  readonly storageDir: string;
  /** False in Restricted Mode: nothing is asked. */
  trusted(): boolean;
  /** The agents configured now. */
  agents(): readonly GroupAgent[];
  readonly diagnostics?: ComparisonDiagnostics;
  /** Shows the comparison of a group just started. */
  reveal?(group: WorktreeGroup): void;
}

/**
 * "Ask several agents…": one prompt sent to N chosen agents, each in a new chat working in a worktree of
 * its own on its own branch; the groups (which chats were asked together, kept beside the worktree
 * records so they survive a reload) and the comparison of their runs — status, changed files, +/− lines,
 * Problems — with Apply this one and Discard the rest. A run that fails to start is marked failed with its
 * reason; the others go on. Changes are announced by events alone (no timer).
 */
export class AgentGroups implements Disposable {
  private groups: WorktreeGroup[] = [];
  private readonly store: WorktreeGroupStore;
  private readonly writes = new SerialQueue();
  private readonly changeEmitter = new Emitter<string | undefined>();
  /** A run's status or figures changed (its chat's id), or the groups did (undefined). */
  readonly onDidChange = this.changeEmitter.event;
  private context: ChatContext | undefined;
  private folderOf: (() => string) | undefined;
  private readonly subscriptions: Disposable[] = [];
  /** Members whose changes were asked to be counted (after a reload nothing is counted yet). */
  private readonly counting = new Set<string>();
  /**
   * Each run's row as last announced: a change that leaves it as it was is not announced. A redraw
   * makes VS Code build the row's inline actions anew, and a click landing meanwhile is lost (the
   * likely reason Apply This One once did nothing in the e2e suite); worktree states and diagnostics
   * change far more often than what a row shows.
   */
  private readonly announced = new Map<string, string>();
  /** Resolves once the groups are read back. */
  readonly restored: Promise<void>;

  constructor(private readonly deps: AgentGroupsDeps) {
    this.store = new WorktreeGroupStore(deps.storageDir);
    this.restored = this.store.all().then(
      (groups) => {
        this.groups = groups;
        this.everythingChanged();
      },
      (error: unknown) => deps.logger.error(`Could not read the agent groups: ${String(error)}`),
    );
    this.subscriptions.push(deps.worktrees.onDidChange((chatId) => this.memberChanged(chatId)));
    // Diagnostics change with every keystroke in an editor: only those of a run's worktree redraw it.
    const diagnostics = deps.diagnostics?.onDidChange?.((paths) => {
      for (const chatId of this.runsHolding(paths)) {
        this.runChanged(chatId);
      }
    });
    if (diagnostics) {
      this.subscriptions.push(diagnostics);
    }
  }

  /** Binds the chat (by the contribution); `folder` says where a group's worktrees are made from. */
  bind(context: ChatContext, folder: () => string): void {
    this.context = context;
    this.folderOf = folder;
    this.subscriptions.push(context.activity.onDidChange(({ chat }) => this.memberChanged(chat.id)));
    void Promise.all([context.restored, this.restored]).then(() => this.prune());
  }

  /** The groups, newest first. */
  list(): readonly WorktreeGroup[] {
    return this.groups;
  }

  /** The group chat `chatId` was asked in. */
  groupOf(chatId: string): WorktreeGroup | undefined {
    return this.groups.find((group) => group.members.some((member) => member.chatId === chatId));
  }

  /** The comparison of a group's runs; a run not counted yet (after a reload) is counted, once. */
  rows(asked: WorktreeGroup): RunRow[] {
    const context = this.bound();
    // The group as it is now (a run may have failed since `asked` was read).
    const group = this.groups.find((kept) => kept.id === asked.id) ?? asked;
    for (const member of group.members) {
      const record = this.deps.worktrees.record(member.chatId);
      const idle = context.chats.get(member.chatId)?.running !== true;
      if (
        idle &&
        record &&
        !record.discarded &&
        !this.counting.has(member.chatId) &&
        !this.deps.worktrees.changes(member.chatId)
      ) {
        this.counting.add(member.chatId);
        void this.deps.worktrees.refresh(member.chatId);
      }
    }
    return comparisonRows(group, {
      chat: (chatId) => context.chats.get(chatId),
      activity: context.activity,
      worktrees: this.deps.worktrees,
      ...(this.deps.diagnostics ? { diagnostics: this.deps.diagnostics } : {}),
    });
  }

  /** Asks for the prompt and the agents, then starts the group; undefined when the user cancelled. */
  async ask(): Promise<WorktreeGroup | undefined> {
    this.refuseUntrusted();
    const agents = this.deps.agents();
    if (agents.length < GROUP_SIZE.min) {
      throw new WorktreeError(
        `Asking several agents needs at least ${GROUP_SIZE.min} configured agents (setting acpAgents.agents); there ${agents.length === 1 ? 'is 1' : `are ${agents.length}`}.`,
      );
    }
    const prompt = await this.deps.ui.ask('The prompt every agent gets, each in a worktree of its own', '', (text) =>
      text.trim() === '' ? 'Write a prompt.' : undefined,
    );
    if (prompt === undefined) {
      return undefined;
    }
    const picked = await this.deps.ui.pickAgents(agents, GROUP_SIZE);
    if (picked === undefined) {
      return undefined;
    }
    if (picked.length < GROUP_SIZE.min || picked.length > GROUP_SIZE.max) {
      void this.deps.ui.inform(
        `Choose ${GROUP_SIZE.min} to ${GROUP_SIZE.max} agents (${picked.length} chosen): nothing was sent.`,
      );
      return undefined;
    }
    const group = await this.start(prompt, picked);
    this.deps.reveal?.(group);
    return group;
  }

  /**
   * Sends `prompt` to each agent of `agentIds` (2 to 6), each in a new chat in a new worktree made from
   * the folder's HEAD. Resolves once every worktree is made and every prompt is on its way; a run that
   * cannot start is marked failed with the reason, the others go on.
   */
  async start(prompt: string, agentIds: readonly string[], folder = this.folderOf?.()): Promise<WorktreeGroup> {
    this.refuseUntrusted();
    const context = this.bound();
    if (agentIds.length < GROUP_SIZE.min || agentIds.length > GROUP_SIZE.max) {
      throw new WorktreeError(`Ask ${GROUP_SIZE.min} to ${GROUP_SIZE.max} agents at once.`);
    }
    if (folder === undefined) {
      throw new WorktreeError('No worktree: open a folder first.');
    }
    await Promise.all([context.restored, this.restored]);
    const id = randomUUID();
    const members: GroupMember[] = [];
    const started: Conversation[] = [];
    // One after another: each `git worktree add` takes the repository's locks.
    for (const agentId of agentIds) {
      const label = this.deps.agents().find((agent) => agent.id === agentId)?.label ?? agentId;
      const chat = context.chats.create(agentId);
      const member: GroupMember = { chatId: chat.id, agentId, agentLabel: label };
      try {
        await this.deps.actions.create(chat, folder, `${label} ${prompt}`, id);
        started.push(chat);
        members.push(member);
      } catch (error) {
        members.push({ ...member, failure: failureText(messageOf(error)) });
      }
    }
    const group: WorktreeGroup = { id, prompt: groupPrompt(prompt), createdAt: Date.now(), members };
    await this.update((groups) => [group, ...groups]);
    for (const chat of started) {
      void this.send(group.id, chat, prompt);
    }
    return group;
  }

  /** Applies one run's work to the folder (the worktree's Apply: three-way, conflicts in the merge editor). */
  async applyOne(chatId: string): Promise<void> {
    await this.deps.actions.apply(chatId);
  }

  /** Discards the worktrees of every other run of `chatId`'s group (one question when work would be lost). */
  async discardRest(chatId: string): Promise<number> {
    const group = this.groupOf(chatId);
    if (!group) {
      return 0;
    }
    const rest = group.members
      .filter((member) => member.chatId !== chatId)
      .map((member) => member.chatId)
      .filter((other) => {
        const record = this.deps.worktrees.record(other);
        return record !== undefined && !record.discarded;
      });
    if (rest.length === 0) {
      void this.deps.ui.inform('The other agents’ worktrees are gone already.');
      return 0;
    }
    return this.deps.actions.discardEach(rest);
  }

  /** A member's turn ended and its changes were counted: its changed files go to the language servers. */
  async checkProblems(chatId: string): Promise<void> {
    const record = this.deps.worktrees.record(chatId);
    const changes = this.deps.worktrees.changes(chatId);
    if (!record || !changes || !this.groupOf(chatId) || !this.deps.diagnostics?.check) {
      return;
    }
    await this.deps.diagnostics.check(changedPaths(record, changes.files));
  }

  /** Chats are gone: a group none of whose chats is left goes too. */
  chatsDeleted(): void {
    void this.prune();
  }

  dispose(): void {
    this.subscriptions.splice(0).forEach((subscription) => subscription.dispose());
    this.changeEmitter.dispose();
  }

  private async send(groupId: string, chat: Conversation, prompt: string): Promise<void> {
    const context = this.bound();
    try {
      await context.sessions.sendPrompt(chat, [{ type: 'text', text: prompt }]);
      if (chat.thread.lastTurn === undefined && !context.sessions.waitsForSignIn(chat.id)) {
        const status = context.pool.status(chat.agentId);
        await this.fail(groupId, chat.id, status.error?.message ?? 'the agent did not start');
      }
    } catch (error) {
      await this.fail(groupId, chat.id, messageOf(error));
    }
  }

  private async fail(groupId: string, chatId: string, reason: string): Promise<void> {
    this.deps.logger.warn(`A run of an agent group failed to start: ${reason}`);
    await this.update((groups) =>
      groups.map((group) =>
        group.id !== groupId
          ? group
          : {
              ...group,
              members: group.members.map((member) =>
                member.chatId === chatId ? { ...member, failure: failureText(reason) } : member,
              ),
            },
      ),
    );
  }

  private async prune(): Promise<void> {
    const context = this.context;
    if (!context) {
      return;
    }
    const live = (group: WorktreeGroup): boolean =>
      group.members.some((member) => context.chats.get(member.chatId) !== undefined);
    if (this.groups.every(live)) {
      this.everythingChanged();
      return;
    }
    await this.update((groups) => groups.filter(live));
  }

  /** Changes the groups and writes them (one write at a time, in order). */
  private update(change: (groups: WorktreeGroup[]) => WorktreeGroup[]): Promise<void> {
    return this.writes.run(async () => {
      this.groups = change(this.groups);
      try {
        this.groups = await this.store.save(this.groups);
      } catch (error) {
        this.deps.logger.error(`Could not save the agent groups: ${String(error)}`);
      }
      this.everythingChanged();
    });
  }

  /** The runs whose worktree holds one of `paths`. */
  private runsHolding(paths: readonly string[]): string[] {
    return this.groups.flatMap((group) =>
      group.members.flatMap((member) => {
        const record = this.deps.worktrees.record(member.chatId);
        const holds =
          record !== undefined && !record.discarded && paths.some((file) => isLexicallyWithin(file, record.folder));
        return holds ? [member.chatId] : [];
      }),
    );
  }

  private memberChanged(chatId: string): void {
    if (this.groupOf(chatId)) {
      this.runChanged(chatId);
    }
  }

  /** The whole comparison is drawn again: every row is announced afresh. */
  private everythingChanged(): void {
    this.announced.clear();
    this.changeEmitter.fire(undefined);
  }

  /** Announces a run's change when its row is not what was last announced. */
  private runChanged(chatId: string): void {
    const group = this.groupOf(chatId);
    const row =
      group && this.context ? this.rows(group).find((run) => run.member.chatId === chatId) : undefined;
    const shown = row === undefined ? undefined : JSON.stringify(row);
    if (shown !== undefined && this.announced.get(chatId) === shown) {
      return;
    }
    if (shown !== undefined) {
      this.announced.set(chatId, shown);
    }
    this.changeEmitter.fire(chatId);
  }

  private refuseUntrusted(): void {
    if (!this.deps.trusted()) {
      throw new WorktreeError('No worktree in Restricted Mode: trust the workspace first.');
    }
  }

  private bound(): ChatContext {
    if (!this.context) {
      throw new Error('The chat is not ready yet.');
    }
    return this.context;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
