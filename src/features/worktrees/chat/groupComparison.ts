import * as path from 'node:path';
import type { ChatActivity } from '../../../chat/chatActivity';
import type { Conversation } from '../../../chat/conversation';
import type { TreeFileChange } from '../../../core/git/treeDiff';
import type { Disposable } from '../../../core/util/disposable';
import type { WorktreeChangesInfo } from '../../../protocol';
import type { GroupMember, WorktreeGroup } from '../core/worktreeGroups';
import type { WorktreeRecord } from '../core/worktreeRecords';
import type { WorktreeChats } from './worktreeChats';

/**
 * Where one agent's run of a group is: its chat's own status (`ChatActivity`: running, waiting for you,
 * unread, failed) as the comparison words it, or, for a run that never got going, `failed` with the
 * reason; `discarded` once its worktree is gone, `deleted` once its chat is.
 */
export type RunStatus = 'starting' | 'running' | 'waiting' | 'finished' | 'failed' | 'discarded' | 'deleted';

/** Problems VS Code reports for the changed files: what the comparison counts. */
export interface ProblemCounts {
  readonly errors: number;
  readonly warnings: number;
}

/** The diagnostics of files, as the comparison reads them (VS Code's Problems: errors and warnings). */
export interface ComparisonDiagnostics {
  problems(paths: readonly string[]): readonly { readonly severity: 'error' | 'warning' }[];
  /** Has the language servers look at the files (bounded by the implementation). */
  check?(paths: readonly string[]): Promise<void>;
  onDidChange?(listener: (paths: readonly string[]) => void): Disposable;
}

/** One agent's run as the comparison lists it. */
export interface RunRow {
  readonly member: GroupMember;
  readonly status: RunStatus;
  /** Why it failed, or what it waits for. */
  readonly detail?: string;
  readonly record?: WorktreeRecord;
  /** Changed files against the worktree's base (counted after each turn), the first `MAX_LISTED_FILES`. */
  readonly files: readonly TreeFileChange[];
  /** Files, +/− lines and whether anything is unapplied; undefined until counted. */
  readonly counts?: WorktreeChangesInfo;
  /** Its work was applied and nothing changed since. */
  readonly applied: boolean;
  /** Undefined without diagnostics, or before anything changed. */
  readonly problems?: ProblemCounts;
}

/** What the rows are read from. */
export interface ComparisonSources {
  chat(chatId: string): Conversation | undefined;
  readonly activity: Pick<ChatActivity, 'state' | 'detail'>;
  readonly worktrees: Pick<WorktreeChats, 'record' | 'changes'>;
  readonly diagnostics?: ComparisonDiagnostics;
}

/** The rows of a group, in the order its agents were asked. */
export function comparisonRows(group: WorktreeGroup, sources: ComparisonSources): RunRow[] {
  return group.members.map((member) => runRow(member, sources));
}

function runRow(member: GroupMember, sources: ComparisonSources): RunRow {
  const record = sources.worktrees.record(member.chatId);
  const changes = sources.worktrees.changes(member.chatId);
  const files = changes?.files ?? [];
  const { status, detail } = runStatus(member, record, sources);
  const problems =
    sources.diagnostics && record && !record.discarded && files.length > 0
      ? problemCounts(sources.diagnostics, changedPaths(record, files))
      : undefined;
  return {
    member,
    status,
    ...(detail === undefined ? {} : { detail }),
    ...(record ? { record } : {}),
    files,
    ...(changes ? { counts: changes.counts } : {}),
    applied: record?.appliedTree !== undefined && changes?.counts.unapplied === false,
    ...(problems ? { problems } : {}),
  };
}

function runStatus(
  member: GroupMember,
  record: WorktreeRecord | undefined,
  sources: ComparisonSources,
): { status: RunStatus; detail?: string } {
  if (member.failure !== undefined) {
    return { status: 'failed', detail: member.failure };
  }
  const chat = sources.chat(member.chatId);
  if (!chat) {
    return { status: 'deleted' };
  }
  if (record?.discarded) {
    return { status: 'discarded' };
  }
  const state = sources.activity.state(chat.id);
  if (state === 'waiting') {
    const detail = sources.activity.detail(chat);
    return { status: 'waiting', ...(detail === undefined ? {} : { detail }) };
  }
  const last = chat.thread.lastTurn;
  if (state === 'running' || last?.status === 'running' || chat.running) {
    return { status: 'running' };
  }
  if (last === undefined) {
    return { status: 'starting' };
  }
  if (last.status === 'failed' || last.status === 'interrupted') {
    return { status: 'failed', detail: last.error?.message ?? `the turn was ${last.status}` };
  }
  return { status: 'finished', ...(last.status === 'cancelled' ? { detail: 'stopped' } : {}) };
}

/** The changed files that still exist in the worktree (a deleted file has no problems). */
export function changedPaths(record: WorktreeRecord, files: readonly TreeFileChange[]): string[] {
  return files
    .filter((file) => file.kind !== 'deleted')
    .map((file) => path.join(record.folder, ...file.rel.split('/')));
}

/** The errors and warnings VS Code reports for `paths`. */
export function problemCounts(diagnostics: ComparisonDiagnostics, paths: readonly string[]): ProblemCounts {
  let errors = 0;
  let warnings = 0;
  for (const problem of diagnostics.problems(paths)) {
    if (problem.severity === 'error') {
      errors++;
    } else {
      warnings++;
    }
  }
  return { errors, warnings };
}

/** A row's status in the user's words. */
export function statusText(row: Pick<RunRow, 'status' | 'applied'>): string {
  if (row.applied) {
    return 'applied';
  }
  switch (row.status) {
    case 'waiting':
      return 'waiting for you';
    default:
      return row.status;
  }
}
