import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TreeFileChange } from '../../../core/git/treeDiff';
import { dirtyDocument } from '../../../vscode/openDocuments';
import type { UserPrompts } from '../../../vscode/userPrompts';
import type { AppliedFile } from '../core/applyPlan';
import { diskWriter, type FolderWriter } from '../core/applyToFolder';
import type { WorktreeRecord } from '../core/worktreeRecords';
import type { LeftoverWorktree, WorktreeUi } from '../chat/worktreeUi';

/** Read-only documents of ours: a file before Apply, the three sides of a conflict, a worktree's base. */
const SCHEME = 'acp-worktree';
/** Documents kept for the diff and merge editors; the oldest go first. */
const MAX_KEPT = 2_000;

/** The worktree steps' dialogs, editors and windows in VS Code; dialogs go through the prompts seam. */
export class VsCodeWorktreeUi implements WorktreeUi, vscode.Disposable {
  private readonly documents = new Map<string, Uint8Array>();
  private readonly registration: vscode.Disposable;
  private next = 0;

  constructor(
    private readonly prompts: UserPrompts,
    /** The bytes of `rel` in the worktree's base commit (for its changes' diff). */
    private readonly baseBytes: (record: WorktreeRecord, rels: readonly string[]) => Promise<Map<string, Buffer>>,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
      provideTextDocumentContent: (uri) => Buffer.from(this.documents.get(uri.query) ?? new Uint8Array()).toString('utf8'),
    });
  }

  readonly writer: FolderWriter = {
    current: (file) => diskWriter.current(file),
    unsaved: (file) => dirtyDocument(file) !== undefined,
    // Exact bytes on disk; an open editor without unsaved text reloads from it.
    write: (files) => diskWriter.write(files),
  };

  async ask(prompt: string, value: string, validate?: (text: string) => string | undefined): Promise<string | undefined> {
    const answer = await this.prompts.text(prompt, value);
    if (answer === undefined) {
      return undefined;
    }
    const text = answer.trim() === '' ? value : answer;
    const problem = validate?.(text);
    if (problem !== undefined) {
      void this.prompts.notify(problem, []);
      return undefined;
    }
    return text;
  }

  confirm(message: string, detail: string, actions: readonly string[]): Promise<string | undefined> {
    return this.prompts.modal(message, detail, actions);
  }

  inform(message: string, actions: readonly string[] = []): Promise<string | undefined> {
    return this.prompts.notify(message, actions);
  }

  async showApplied(title: string, files: readonly AppliedFile[]): Promise<void> {
    await vscode.commands.executeCommand(
      'vscode.changes',
      title,
      files.map((file) => {
        const now = vscode.Uri.file(file.path);
        return [now, this.keep(file.rel, file.before), now];
      }),
    );
  }

  /** Each conflicted file in the merge editor: the base, the folder's side, the worktree's side. */
  async openConflicts(files: readonly AppliedFile[]): Promise<void> {
    for (const file of files) {
      if (!file.conflict) {
        continue;
      }
      await vscode.commands.executeCommand('_open.mergeEditor', {
        base: this.keep(`${file.rel} (base)`, file.conflict.base),
        input1: { uri: this.keep(`${file.rel} (workspace)`, file.conflict.ours), title: 'Workspace' },
        input2: { uri: this.keep(`${file.rel} (worktree)`, file.conflict.theirs), title: 'Worktree' },
        output: vscode.Uri.file(file.path),
      });
    }
  }

  async showChanges(record: WorktreeRecord, files: readonly TreeFileChange[]): Promise<void> {
    const base = await this.baseBytes(record, files.map((file) => file.rel));
    await vscode.commands.executeCommand(
      'vscode.changes',
      `${path.basename(record.folder)} (${record.branch}) against ${record.baseCommit.slice(0, 8)}`,
      files.map((file) => {
        const now = vscode.Uri.file(path.join(record.folder, ...file.rel.split('/')));
        return [now, this.keep(file.rel, base.get(file.rel)), now];
      }),
    );
  }

  async openWindow(folder: string): Promise<void> {
    await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(folder), { forceNewWindow: true });
  }

  async pickAgents(
    agents: readonly { readonly id: string; readonly label: string }[],
    bounds: { readonly min: number; readonly max: number },
  ): Promise<readonly string[] | undefined> {
    const picked = await vscode.window.showQuickPick(
      agents.map((agent) => ({ label: agent.label, ...(agent.id === agent.label ? {} : { description: agent.id }), agent })),
      {
        canPickMany: true,
        title: `Ask several agents: choose ${bounds.min} to ${bounds.max}`,
        placeHolder: `Each chosen agent gets the prompt in a worktree of its own (${bounds.min} to ${bounds.max} agents)`,
      },
    );
    return picked?.map((item) => item.agent.id);
  }

  async pickLeftovers(leftovers: readonly LeftoverWorktree[]): Promise<readonly LeftoverWorktree[]> {
    const picked = await vscode.window.showQuickPick(
      leftovers.map((leftover) => ({
        label: path.basename(leftover.folder),
        description: leftover.branch,
        detail: leftover.folder,
        picked: true,
        leftover,
      })),
      { canPickMany: true, title: 'Remove worktrees left from agent chats (their branches go too)' },
    );
    return (picked ?? []).map((item) => item.leftover);
  }

  dispose(): void {
    this.registration.dispose();
    this.documents.clear();
  }

  /** A read-only document of `bytes` (empty when the file did not exist), named after `label`. */
  private keep(label: string, bytes: Uint8Array | undefined): vscode.Uri {
    const key = String(this.next++);
    this.documents.set(key, bytes ?? new Uint8Array());
    if (this.documents.size > MAX_KEPT) {
      const [oldest] = this.documents.keys();
      this.documents.delete(oldest!);
    }
    return vscode.Uri.from({ scheme: SCHEME, path: `/${label}`, query: key });
  }
}
