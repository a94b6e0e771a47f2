import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EditReviews } from '../chat/editReviewContribution';
import type { UserPrompts } from '../../../vscode/userPrompts';
import type { WriteDecision } from '../../../vscode/workspaceFileSystem';

/** Keep or Undo of the whole write, or part of it kept (the text to write instead). */
export type ReviewDecision = WriteDecision;

export const PROPOSAL_SCHEME = 'acp-proposed';
const KEEP = 'Keep';
const UNDO = 'Undo';

interface PendingReview {
  readonly id: string;
  readonly path: string;
  readonly proposal: vscode.Uri;
  decide(decision: ReviewDecision): void;
}

/** A proposed edit waiting for the user, as the chat shows it. */
export interface ReviewRequest {
  readonly id: string;
  readonly path: string;
  readonly isNew: boolean;
}

/** A proposed edit waiting for the user with its texts: what the file holds (null: new) and what it would. */
export interface ProposedWrite extends ReviewRequest {
  readonly current: string | null;
  readonly proposed: string;
}

/**
 * Shows an agent's proposed file content in VS Code's diff editor (current ↔ proposed, the
 * proposal held in a read-only virtual document) and waits for Keep or Undo — from the diff
 * editor's title buttons, a notification, or the chat. The first answer wins.
 */
export class VscodeEditReviews implements vscode.Disposable, EditReviews {
  private readonly proposals = new Map<string, string>();
  private readonly waiting = new Map<string, PendingReview>();
  private readonly subscriptions: vscode.Disposable[];
  private next = 1;
  private readonly changeEmitter = new vscode.EventEmitter<readonly ReviewRequest[]>();
  /** The reviews waiting for an answer, whenever that list changes (for the chat). */
  readonly onDidChange = this.changeEmitter.event;
  private readonly requests = new Map<string, ReviewRequest>();

  constructor(private readonly prompts: UserPrompts) {
    this.subscriptions = [
      vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, {
        provideTextDocumentContent: (uri) => this.proposals.get(uri.path.split('/')[1] ?? '') ?? '',
      }),
      vscode.commands.registerCommand('acpAgents.review.keep', (uri?: vscode.Uri) =>
        this.answerFor(uri, 'keep'),
      ),
      vscode.commands.registerCommand('acpAgents.review.undo', (uri?: vscode.Uri) =>
        this.answerFor(uri, 'undo'),
      ),
    ];
  }

  /** Opens the diff of `oldText` (null: a new file) against `newText` and waits for the decision. */
  async review(filePath: string, oldText: string | null, newText: string): Promise<ReviewDecision> {
    const id = `r${this.next++}`;
    const name = path.basename(filePath);
    const proposal = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${id}/${name}` });
    const original = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${id}-original/${name}` });
    this.proposals.set(id, newText);
    this.proposals.set(`${id}-original`, oldText ?? '');
    const abort = new AbortController();
    const decision = new Promise<ReviewDecision>((resolve) => {
      this.waiting.set(id, {
        id,
        path: filePath,
        proposal,
        decide: (answer) => {
          if (this.waiting.delete(id)) {
            this.requests.delete(id);
            this.changeEmitter.fire([...this.requests.values()]);
            abort.abort();
            resolve(answer);
          }
        },
      });
    });
    this.requests.set(id, { id, path: filePath, isNew: oldText === null });
    this.changeEmitter.fire([...this.requests.values()]);

    const title = `${name}: agent's proposal ${oldText === null ? '(new file)' : ''}`.trim();
    await vscode.commands.executeCommand('vscode.diff', original, proposal, title, { preview: false });
    void this.prompts
      .notify(
        `The agent wants to ${oldText === null ? 'create' : 'change'} ${name}. Keep the change?`,
        [KEEP, UNDO],
        abort.signal,
      )
      .then((answer) => {
        if (answer === KEEP || answer === UNDO) {
          this.answer(id, answer === KEEP ? 'keep' : 'undo');
        }
      });
    try {
      return await decision;
    } finally {
      await this.closeDiff(proposal);
      this.proposals.delete(id);
      this.proposals.delete(`${id}-original`);
    }
  }

  /** Opens the diff of a proposed edit only to look at it (a permission prompt's "Show diff"). */
  async preview(filePath: string, oldText: string | null, newText: string): Promise<void> {
    const id = `p${this.next++}`;
    const name = path.basename(filePath);
    this.proposals.set(id, newText);
    this.proposals.set(`${id}-original`, oldText ?? '');
    await vscode.commands.executeCommand(
      'vscode.diff',
      vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${id}-original/${name}` }),
      vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${id}/${name}` }),
      `${name}: proposed edit`,
      { preview: true },
    );
  }

  /** Answers a pending review by id (from the chat). Returns false when it was not pending. */
  answer(id: string, decision: ReviewDecision): boolean {
    const pending = this.waiting.get(id);
    pending?.decide(decision);
    return pending !== undefined;
  }

  pending(): readonly ReviewRequest[] {
    return [...this.requests.values()];
  }

  /** The writes waiting, oldest first, with their texts (the editor shows their changes in the file). */
  proposedWrites(): readonly ProposedWrite[] {
    return [...this.requests.values()].flatMap((request) => {
      const proposed = this.proposals.get(request.id);
      const current = this.proposals.get(`${request.id}-original`);
      return proposed === undefined || current === undefined
        ? []
        : [{ ...request, current: request.isNew ? null : current, proposed }];
    });
  }

  /** From the diff editor's title buttons: the review whose proposal is shown (else the newest). */
  private answerFor(uri: vscode.Uri | undefined, decision: ReviewDecision): void {
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    const match = [...this.waiting.values()].find(
      (p) => target && p.proposal.toString() === target.toString(),
    );
    const pending = match ?? [...this.waiting.values()].at(-1);
    pending?.decide(decision);
  }

  private async closeDiff(proposal: vscode.Uri): Promise<void> {
    const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs);
    const open = tabs.filter(
      (tab) =>
        tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === proposal.toString(),
    );
    if (open.length > 0) {
      await vscode.window.tabGroups.close(open);
    }
  }

  /** Every pending review is answered Undo: nothing is written without a decision. */
  dispose(): void {
    for (const pending of [...this.waiting.values()]) {
      pending.decide('undo');
    }
    this.changeEmitter.dispose();
    for (const subscription of this.subscriptions) {
      subscription.dispose();
    }
  }
}
