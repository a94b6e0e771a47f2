import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import type { AttachmentRef } from '../../../protocol';
import type { UserPrompts } from '../../../vscode/userPrompts';
import { describeHunk, hunkViews, type HunkView, type ProposedHunkView } from '../core/hunkRanges';
import type { Hunk } from '../core/hunks';
import { noteAttachment } from '../chat/feedbackNotes';
import type { HunkReview } from '../chat/hunkReview';
import type { ProposedWriteHunks } from '../chat/proposedWrites';
import type { EditorHunks } from './editorHunks';
import { hunkAtCursor, hunkToGo, type Cursor, type HunkPlace } from '../core/hunkNavigation';

/** What the commands need besides the review: the chat's composer and the card's diff. */
export interface HunkCommandDeps {
  readonly review: HunkReview;
  /** The hunks of client writes still waiting for review. */
  readonly proposed: ProposedWriteHunks;
  readonly editors: EditorHunks;
  /** Puts a chip on the window's chat composer. */
  readonly attach: (attachment: AttachmentRef) => void;
  /** Opens `path`'s diff (before the turn ↔ now), where the accessible diff viewer (F7) works. */
  readonly openDiff: (path: string) => Promise<void>;
  /** Asks for the note of "Ask for a change…" (the seam the integration tests answer through). */
  readonly prompts: Pick<UserPrompts, 'text'>;
}

/** What the overlay says now: the status bar's "Change 3 of 12 · file 2 of 5" and the last announcement. */
export interface HunkOverlay {
  /** The status bar's text while the active editor is at a hunk, else undefined. */
  readonly status: string | undefined;
  /** What navigation last announced ("change 3 of 12, 4 lines added, in a.ts, file 2 of 5"). */
  readonly announced: string | undefined;
}

/** A hunk of the reviewed turn: its file, and its place among all of them. */
interface Located {
  readonly path: string;
  readonly view: HunkView;
}

/**
 * The hunk review's commands (each with a keybinding in package.json): Keep / Undo of the hunk at the
 * cursor or the one a CodeLens names, Keep all / Undo all of the file, next / previous change and file,
 * "Ask for a change…", the accessible diff; the status bar says "Change 3 of 12 · file 2 of 5".
 */
export function registerHunkCommands(deps: HunkCommandDeps): {
  readonly registrations: vscode.Disposable[];
  readonly overlay: HunkOverlay;
} {
  const status = vscode.window.createStatusBarItem('acpAgents.hunks', vscode.StatusBarAlignment.Left, 90);
  status.name = 'Agent changes';
  status.command = 'acpAgents.hunks.next';
  const position = new HunkPosition(deps, status);
  const run = (id: string, work: (...args: unknown[]) => Promise<unknown>): vscode.Disposable =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        await work(...args);
      } catch (error) {
        void vscode.window.showErrorMessage(error instanceof Error ? error.message : String(error));
      }
    });
  const decide =
    (how: 'keep' | 'undo') => async (path?: unknown, index?: unknown, hunk?: unknown, of?: unknown) => {
      const named = typeof path === 'string' && typeof index === 'number' ? { path, index } : undefined;
      const proposed =
        named === undefined ? position.proposedAtCursor() : of === 'proposed' ? named : undefined;
      if (proposed !== undefined) {
        deps.proposed.decide(proposed.path, proposed.index, how, hunk as Hunk | undefined);
        return;
      }
      if (named !== undefined) {
        await deps.review[how](named.path, named.index, hunk as Hunk | undefined);
        return;
      }
      const at = await position.atCursor();
      if (at !== undefined) {
        await deps.review[how](at.path, at.view.index, at.view.hunk);
      }
    };
  const wholeFile = (how: 'keep' | 'undo') => async () => {
    const editor = vscode.window.activeTextEditor;
    if (editor !== undefined && waitingWriteHunks(deps.editors, editor) !== undefined) {
      deps.proposed.decideAll(editor.document.uri.fsPath, how);
      return;
    }
    await position.wholeFile((file) =>
      how === 'keep' ? deps.review.keepAll(file) : deps.review.undoAll(file),
    );
  };
  const registrations = [
    status,
    deps.editors.onDidRefresh(() => position.show()),
    vscode.window.onDidChangeTextEditorSelection(() => position.show()),
    vscode.window.onDidChangeActiveTextEditor(() => position.show()),
    run('acpAgents.hunks.keep', decide('keep')),
    run('acpAgents.hunks.undo', decide('undo')),
    run('acpAgents.hunks.keepFile', wholeFile('keep')),
    run('acpAgents.hunks.undoFile', wholeFile('undo')),
    run('acpAgents.hunks.next', () => position.go(1)),
    run('acpAgents.hunks.previous', () => position.go(-1)),
    run('acpAgents.hunks.nextFile', () => position.goFile(1)),
    run('acpAgents.hunks.previousFile', () => position.goFile(-1)),
    run('acpAgents.hunks.askForChange', (path, index) => askForChange(deps, position, path, index)),
    // The editor's context menu shows titles without their category: its entry is titled "ACP: …".
    run('acpAgents.editor.askForChange', () => askForChange(deps, position)),
    run('acpAgents.hunks.openDiff', () => position.wholeFile((path) => deps.openDiff(path))),
  ];
  return { registrations, overlay: position };
}

/** Where the cursor is among the reviewed turn's hunks, and moving it from one to the next. */
class HunkPosition implements HunkOverlay {
  status: string | undefined;
  announced: string | undefined;
  /** The keybindings' context as last set (VS Code sends every set to the window). */
  private pendingSet: boolean | undefined;
  /** A count of every file's hunks for the status bar is running; another was asked for meanwhile. */
  private counting = false;
  private countAgain = false;

  constructor(
    private readonly deps: HunkCommandDeps,
    private readonly item: vscode.StatusBarItem,
  ) {}

  /** The hunk of a write waiting for review under (or nearest above) the cursor of the active editor. */
  proposedAtCursor(): { path: string; index: number } | undefined {
    const editor = vscode.window.activeTextEditor;
    const path = editor?.document.uri.fsPath;
    const hunks = editor && waitingWriteHunks(this.deps.editors, editor);
    if (editor === undefined || path === undefined || hunks === undefined) {
      return undefined;
    }
    const spans = hunks.map((view) => ({ path, anchor: view.anchor, last: view.anchor }));
    const here = hunkAtCursor(spans, { path, line: editor.selection.active.line });
    const at = here === undefined ? undefined : hunks[here];
    return at && { path, index: at.index };
  }

  /**
   * The hunk under (or nearest above) the cursor of the active editor, from the list the status bar shows:
   * a file just opened has its hunks drawn a moment later, and a key pressed then must still act.
   */
  async atCursor(): Promise<Located | undefined> {
    const all = await this.all();
    const here = this.index(all);
    return here === undefined ? undefined : all[here];
  }

  async wholeFile(work: (path: string) => Promise<void>): Promise<void> {
    const path = vscode.window.activeTextEditor?.document.uri.fsPath;
    if (path !== undefined && this.deps.review.files().some((file) => file.path === path)) {
      await work(path);
    }
  }

  /** Moves to the next (1) or previous (-1) hunk, into the next or previous changed file at the ends. */
  async go(step: 1 | -1): Promise<void> {
    const all = await this.all();
    const next = hunkToGo(places(all), cursor(), step);
    if (next !== undefined) {
      await this.reveal(all, next);
    }
  }

  /** Moves to the first hunk of the next (1) or previous (-1) changed file. */
  async goFile(step: 1 | -1): Promise<void> {
    const all = await this.all();
    const paths = [...new Set(all.map((located) => located.path))];
    if (paths.length === 0) {
      return;
    }
    const current = paths.indexOf(vscode.window.activeTextEditor?.document.uri.fsPath ?? '');
    const target = paths[(current + step + paths.length) % paths.length];
    await this.reveal(
      all,
      all.findIndex((located) => located.path === target),
    );
  }

  /**
   * The status bar: "Change 3 of 12 · file 2 of 5" while the active editor has hunks. Called on every
   * cursor move: nothing is read while the cursor's file has no change of the turn, and one count of every
   * file's hunks runs at a time (the latest cursor counted when it ends) — a turn of hundreds of files must
   * not read and diff them all on each key typed.
   */
  show(): void {
    // The keybindings apply while there are changes to decide (they shadow nothing, and nothing else then).
    const files = this.deps.review.files();
    const pending = files.length > 0 || this.deps.proposed.paths().length > 0;
    if (pending !== this.pendingSet) {
      this.pendingSet = pending;
      void vscode.commands.executeCommand('setContext', 'acpAgents.hunks.pending', pending);
    }
    const path = vscode.window.activeTextEditor?.document.uri.fsPath;
    if (path === undefined || !files.some((file) => file.path === path)) {
      this.place([], undefined);
      return;
    }
    if (this.counting) {
      this.countAgain = true;
      return;
    }
    this.counting = true;
    void this.all()
      .then((all) => this.place(all, this.index(all)))
      .finally(() => {
        this.counting = false;
        if (this.countAgain) {
          this.countAgain = false;
          this.show();
        }
      });
  }

  private place(all: readonly Located[], here: number | undefined): void {
    if (here === undefined) {
      this.status = undefined;
      this.item.hide();
      return;
    }
    this.status = this.describe(all, here);
    this.item.text = `$(diff) ${this.status}`;
    this.item.tooltip = 'Go to the next change of the agent (Keep / Undo on each change)';
    this.item.accessibilityInformation = { label: this.describe(all, here, true) };
    this.item.show();
  }

  private async reveal(all: readonly Located[], index: number): Promise<void> {
    const target = all[index];
    if (target === undefined) {
      return;
    }
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(target.path));
    const at = new vscode.Position(target.view.anchor, 0);
    editor.selection = new vscode.Selection(at, at);
    editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    this.announced = this.describe(all, index, true);
    announce(this.announced);
  }

  private describe(all: readonly Located[], index: number, spoken = false): string {
    const target = all[index] as Located;
    const paths = [...new Set(all.map((located) => located.path))];
    const file = `file ${paths.indexOf(target.path) + 1} of ${paths.length}`;
    if (spoken) {
      return `${describeHunk(target.view.hunk, index + 1, all.length)}, in ${nodePath.basename(target.path)}, ${file}`;
    }
    return `Change ${index + 1} of ${all.length} · ${file}`;
  }

  /** The hunk the cursor is at (or the last one above it) in the list of all. */
  private index(all: readonly Located[]): number | undefined {
    return hunkAtCursor(places(all), cursor());
  }

  /**
   * Every hunk of the reviewed turn, file by file in the card's order; a file a write waits on shows that
   * write's hunks instead (unless the editor drew the turn's: its text is no longer what the write was made against).
   */
  private async all(): Promise<Located[]> {
    const all: Located[] = [];
    for (const file of this.deps.review.files()) {
      const shown = this.deps.editors.hunksOf(file.path);
      const waits = this.deps.proposed.review(file.path) !== undefined;
      const review =
        shown || waits ? undefined : await this.deps.review.review(file.path).catch(() => undefined);
      const views = shown ?? (review && !('refused' in review) ? hunkViews(review) : []);
      all.push(...views.map((view) => ({ path: file.path, view })));
    }
    return all;
  }
}

/** "Ask for a change…": a short note on the hunk or the selection, put on the composer as a chip. */
async function askForChange(
  deps: HunkCommandDeps,
  position: HunkPosition,
  path?: unknown,
  index?: unknown,
): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  let target: { path: string; first: number; last: number } | undefined;
  if (typeof path === 'string' && typeof index === 'number') {
    const view = deps.editors.hunksOf(path)?.[index];
    target = view && { path, first: view.added?.first ?? view.anchor, last: view.added?.last ?? view.anchor };
  } else if (editor !== undefined && !editor.selection.isEmpty) {
    target = {
      path: editor.document.uri.fsPath,
      first: editor.selection.start.line,
      last: editor.selection.end.line,
    };
  } else {
    const at = await position.atCursor();
    target = at && {
      path: at.path,
      first: at.view.added?.first ?? at.view.anchor,
      last: at.view.added?.last ?? at.view.anchor,
    };
  }
  if (target === undefined) {
    throw new Error('Put the cursor on a change of the agent, or select lines, to ask for a change there.');
  }
  const lines =
    target.first === target.last
      ? `line ${target.first + 1}`
      : `lines ${target.first + 1}–${target.last + 1}`;
  const note = await deps.prompts.text(
    'What should the agent change here? It goes with your next message.',
    'e.g. handle the empty list here too',
    `Ask for a change: ${nodePath.basename(target.path)}, ${lines}`,
  );
  if (note === undefined || note.trim() === '') {
    return;
  }
  deps.attach(
    noteAttachment({ path: target.path, startLine: target.first + 1, endLine: target.last + 1, note }),
  );
}

/**
 * Says where navigation arrived: with a screen reader on (VS Code's accessibility support), as a
 * notification, which screen readers read out; else briefly in the status bar.
 */
function announce(text: string): void {
  const support = vscode.workspace.getConfiguration('editor').get<string>('accessibilitySupport');
  if (support === 'on') {
    void vscode.window.showInformationMessage(text);
  } else {
    vscode.window.setStatusBarMessage(text, 3000);
  }
}

/**
 * The hunks of the write waiting on `editor`'s file, drawn or not yet: a key pressed as the file opens acts
 * on what the editor is about to show.
 */
function waitingWriteHunks(
  editors: EditorHunks,
  editor: vscode.TextEditor,
): readonly ProposedHunkView[] | undefined {
  return editors.proposedHunksOf(editor.document.uri.fsPath) ?? editors.proposedViews(editor.document);
}

/** Where each hunk is, for the navigation. */
function places(all: readonly Located[]): HunkPlace[] {
  return all.map(({ path, view }) => ({ path, anchor: view.anchor, last: view.added?.last ?? view.anchor }));
}

/** The active editor's file and line, if there is one. */
function cursor(): Cursor | undefined {
  const editor = vscode.window.activeTextEditor;
  return editor && { path: editor.document.uri.fsPath, line: editor.selection.active.line };
}
