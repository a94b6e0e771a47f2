import * as vscode from 'vscode';
import type { CollectedNotes, CollectedNote } from '../chat/collectedNotes';
import { MAX_NOTE_CHARS } from '../chat/feedbackNotes';

const CONTROLLER_ID = 'acpAgents.notes';

/** One note as a comment: it knows its chip (by URI), so an edit or a delete reaches the composer. */
class NoteComment implements vscode.Comment {
  mode = vscode.CommentMode.Preview;
  readonly author = { name: 'You, for the agent' };
  readonly contextValue = 'acpNote';
  readonly label = 'goes with your next message';
  body: string | vscode.MarkdownString;

  constructor(
    readonly collected: CollectedNote,
    readonly thread: () => vscode.CommentThread | undefined,
  ) {
    this.body = collected.note.note;
  }
}

/**
 * The "Ask for a change…" notes waiting on the composer, as comment threads on their lines (VS Code's
 * comments UI): edited or deleted there, the chip follows; a chip removed or sent, the thread goes.
 */
export class NoteThreads implements vscode.Disposable {
  private readonly controller = vscode.comments.createCommentController(CONTROLLER_ID, 'Notes for the agent');
  private readonly threads = new Map<string, vscode.CommentThread>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly notes: CollectedNotes) {
    this.subscriptions = [
      this.controller,
      { dispose: notes.onDidChange(() => this.show()).dispose },
      vscode.commands.registerCommand('acpAgents.notes.edit', (comment: unknown) =>
        this.editing(comment, true),
      ),
      vscode.commands.registerCommand('acpAgents.notes.cancel', (comment: unknown) =>
        this.editing(comment, false),
      ),
      vscode.commands.registerCommand('acpAgents.notes.save', (comment: unknown) => this.save(comment)),
      vscode.commands.registerCommand('acpAgents.notes.delete', (comment: unknown) => {
        if (comment instanceof NoteComment) {
          this.notes.remove(comment.collected.uri);
        }
      }),
    ];
    this.show();
  }

  /** The notes shown now, by their chip's URI (for tests). */
  shown(): ReadonlyMap<string, vscode.CommentThread> {
    return this.threads;
  }

  dispose(): void {
    this.threads.forEach((thread) => thread.dispose());
    this.threads.clear();
    this.subscriptions.forEach((subscription) => subscription.dispose());
  }

  /** A thread for every note on a composer, none for the others. */
  private show(): void {
    const notes = this.notes.notes();
    const uris = new Set(notes.map((collected) => collected.uri));
    for (const [uri, thread] of this.threads) {
      if (!uris.has(uri)) {
        thread.dispose();
        this.threads.delete(uri);
      }
    }
    for (const collected of notes.filter((candidate) => !this.threads.has(candidate.uri))) {
      this.threads.set(collected.uri, this.thread(collected));
    }
  }

  private thread(collected: CollectedNote): vscode.CommentThread {
    const { path, startLine, endLine } = collected.note;
    const range = new vscode.Range(startLine - 1, 0, endLine - 1, 0);
    const comment = new NoteComment(collected, () => this.threads.get(collected.uri));
    const thread = this.controller.createCommentThread(vscode.Uri.file(path), range, [comment]);
    thread.label = 'Ask for a change';
    thread.canReply = false;
    thread.contextValue = 'acpNote';
    thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
    return thread;
  }

  private editing(comment: unknown, on: boolean): void {
    if (!(comment instanceof NoteComment)) {
      return;
    }
    comment.mode = on ? vscode.CommentMode.Editing : vscode.CommentMode.Preview;
    if (!on) {
      comment.body = comment.collected.note.note;
    }
    this.redraw(comment);
  }

  /** The edited text becomes the note (its chip is replaced); an emptied note is deleted. */
  private save(comment: unknown): void {
    if (!(comment instanceof NoteComment)) {
      return;
    }
    const text = (typeof comment.body === 'string' ? comment.body : comment.body.value).trim();
    if (text === '') {
      this.notes.remove(comment.collected.uri);
      return;
    }
    if (text === comment.collected.note.note) {
      this.editing(comment, false);
      return;
    }
    this.notes.replace(comment.collected.uri, {
      ...comment.collected.note,
      note: text.slice(0, MAX_NOTE_CHARS),
    });
  }

  private redraw(comment: NoteComment): void {
    const thread = comment.thread();
    if (thread !== undefined) {
      thread.comments = [comment];
    }
  }
}
