import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TreeFileChange } from '../../../core/git/treeDiff';
import type { WorktreeGroup } from '../core/worktreeGroups';
import type { AgentGroups } from '../chat/agentGroups';
import { statusText, type RunRow } from '../chat/groupComparison';

/** The comparison's tree view, in the ACP container (shown while a group exists). */
export const COMPARISON_VIEW = 'acpAgents.compare';
/** The context key that shows it. */
const HAS_GROUPS = 'acpAgents.compare.groups';

/**
 * A row of the tree. The same object stands for the same row across redraws (VS Code maps an inline
 * action's click back to it); its figures are read afresh in `getTreeItem`.
 */
type Node =
  | { readonly kind: 'group'; readonly groupId: string }
  | { readonly kind: 'run'; readonly groupId: string; readonly chatId: string }
  | { readonly kind: 'file'; readonly chatId: string; readonly rel: string };

const STATUS_ICONS: Record<RunRow['status'], string> = {
  starting: 'loading~spin',
  running: 'sync~spin',
  waiting: 'bell-dot',
  finished: 'check',
  failed: 'error',
  discarded: 'trash',
  deleted: 'circle-slash',
};

/**
 * "Compare Agents": one row per agent of each group (newest group first) with its status, +/− lines,
 * changed files and the Problems VS Code reports for them; a run's changed files below it, each opening
 * its diff against the worktree's base. A tree view rather than a webview: it takes the theme, the
 * keyboard and the screen reader from VS Code, sits beside the chat in the ACP container, and its inline
 * actions (Open Chat, Apply This One, Discard the Rest) are ordinary commands. Redrawn on the groups'
 * change events only.
 */
export class ComparisonTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly view: vscode.TreeView<Node>;
  private readonly subscription: { dispose(): void };
  /** The rows shown, by key: one object per row for as long as it is shown. */
  private readonly nodes = new Map<string, Node>();

  constructor(private readonly groups: AgentGroups) {
    this.view = vscode.window.createTreeView(COMPARISON_VIEW, { treeDataProvider: this, showCollapseAll: true });
    this.subscription = groups.onDidChange((chatId) => this.changed(chatId));
    this.changed(undefined);
  }

  /** Shows the view (a group was just started). */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand('setContext', HAS_GROUPS, true);
    await vscode.commands.executeCommand(`${COMPARISON_VIEW}.focus`);
  }

  getChildren(node?: Node): Node[] {
    if (!node) {
      return this.groups.list().map((group) => this.node(`group:${group.id}`, { kind: 'group', groupId: group.id }));
    }
    if (node.kind === 'group') {
      const group = this.groups.list().find((kept) => kept.id === node.groupId);
      return (group?.members ?? []).map((member) =>
        this.node(`run:${member.chatId}`, { kind: 'run', groupId: node.groupId, chatId: member.chatId }),
      );
    }
    if (node.kind === 'run') {
      return (this.row(node)?.files ?? []).map((file) =>
        this.node(`file:${node.chatId}:${file.rel}`, { kind: 'file', chatId: node.chatId, rel: file.rel }),
      );
    }
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    const group = this.groups.list().find((kept) => kept.id === (node.kind === 'file' ? undefined : node.groupId));
    if (node.kind === 'group') {
      return group ? this.groupItem(group) : new vscode.TreeItem('');
    }
    if (node.kind === 'run') {
      const row = this.row(node);
      return row ? runItem(row) : new vscode.TreeItem('');
    }
    const run = this.nodes.get(`run:${node.chatId}`);
    const row = run?.kind === 'run' ? this.row(run) : undefined;
    const file = row?.files.find((changed) => changed.rel === node.rel);
    return row && file ? fileItem(row, file) : new vscode.TreeItem(node.rel);
  }

  dispose(): void {
    this.subscription.dispose();
    this.view.dispose();
    this.changeEmitter.dispose();
  }

  private row(node: { readonly groupId: string; readonly chatId: string }): RunRow | undefined {
    const group = this.groups.list().find((kept) => kept.id === node.groupId);
    return group && this.groups.rows(group).find((row) => row.member.chatId === node.chatId);
  }

  private node(key: string, fresh: Node): Node {
    let node = this.nodes.get(key);
    if (!node) {
      node = fresh;
      this.nodes.set(key, node);
    }
    return node;
  }

  private groupItem(group: WorktreeGroup): vscode.TreeItem {
    const [firstLine = ''] = group.prompt.split('\n');
    const item = new vscode.TreeItem(
      firstLine.length > 80 ? `${firstLine.slice(0, 79)}…` : firstLine,
      group === this.groups.list()[0]
        ? vscode.TreeItemCollapsibleState.Expanded
        : vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.id = `group:${group.id}`;
    item.description = `${group.members.length} agents · ${new Date(group.createdAt).toLocaleString()}`;
    item.tooltip = group.prompt;
    item.iconPath = new vscode.ThemeIcon('organization');
    item.contextValue = 'acpGroup';
    return item;
  }

  /** One run changed: its row (and its files) are drawn again; else (undefined) the whole tree. */
  private changed(chatId: string | undefined): void {
    const run = chatId === undefined ? undefined : this.nodes.get(`run:${chatId}`);
    if (run) {
      this.changeEmitter.fire(run);
      return;
    }
    void vscode.commands.executeCommand('setContext', HAS_GROUPS, this.groups.list().length > 0);
    this.nodes.clear();
    this.changeEmitter.fire(undefined);
  }
}

/** The figures of a run, as its row's description says them. */
export function runDescription(row: RunRow): string {
  const parts = [statusText(row)];
  if (row.counts) {
    parts.push(
      row.counts.files === 0
        ? 'no changes'
        : `+${row.counts.added} −${row.counts.removed} in ${plural(row.counts.files, 'file')}`,
    );
  }
  if (row.problems) {
    const { errors, warnings } = row.problems;
    parts.push(errors + warnings === 0 ? 'no problems' : `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`);
  }
  return parts.join(' · ');
}

function runItem(row: RunRow): vscode.TreeItem {
  const item = new vscode.TreeItem(
    row.member.agentLabel,
    row.files.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.id = `run:${row.member.chatId}`;
  item.description = runDescription(row);
  item.iconPath = new vscode.ThemeIcon(row.applied ? 'pass-filled' : STATUS_ICONS[row.status]);
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.appendMarkdown(`**${escape(row.member.agentLabel)}**: ${escape(statusText(row))}`);
  if (row.detail) {
    tooltip.appendMarkdown(` — ${escape(row.detail)}`);
  }
  if (row.record) {
    tooltip.appendMarkdown(`\n\nBranch \`${row.record.branch}\` in ${escape(row.record.folder)}`);
  }
  if (row.problems) {
    tooltip.appendMarkdown(
      '\n\nProblems: the errors and warnings VS Code reports for the changed files in the worktree (they are opened for their language servers after each turn, at most 50).',
    );
  }
  item.tooltip = tooltip;
  const live = row.record !== undefined && !row.record.discarded && row.status !== 'deleted';
  const settled = row.status === 'finished' || row.status === 'failed';
  item.contextValue = live && settled ? 'acpRun.live' : row.status === 'deleted' ? 'acpRun.gone' : 'acpRun';
  if (row.status !== 'deleted') {
    item.command = { command: 'acpAgents.compare.openChat', title: 'Open Chat', arguments: [row.member.chatId] };
  }
  return item;
}

function fileItem(row: RunRow, file: TreeFileChange): vscode.TreeItem {
  const item = new vscode.TreeItem(path.posix.basename(file.rel));
  item.id = `file:${row.member.chatId}:${file.rel}`;
  const folder = path.posix.dirname(file.rel);
  const lines = file.binary ? 'binary' : `+${file.added} −${file.removed}`;
  item.description = `${folder === '.' ? '' : `${folder} · `}${file.kind === 'modified' ? '' : `${file.kind} · `}${lines}`;
  if (row.record) {
    item.resourceUri = vscode.Uri.file(path.join(row.record.folder, ...file.rel.split('/')));
    item.command = {
      command: 'acpAgents.compare.openDiff',
      title: 'Open Diff',
      arguments: [row.member.chatId, file.rel],
    };
  }
  item.contextValue = 'acpRunFile';
  return item;
}

function plural(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (c) => `\\${c}`);
}
