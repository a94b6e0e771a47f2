import * as vscode from 'vscode';
import { hunkViews, proposedHunkViews, type HunkView, type ProposedHunkView } from '../core/hunkRanges';
import type { HunkReview } from '../chat/hunkReview';
import type { ProposedWriteHunks } from '../chat/proposedWrites';

/** Typing in a changed file: its hunks are computed again once it pauses this long. */
const REFRESH_AFTER_TYPING_MS = 150;

/**
 * The reviewed turn's hunks in the normal editor: added lines highlighted (and marked in the overview
 * ruler), removed lines marked on the line where they were, their text on hover; a CodeLens Keep / Undo /
 * Ask for a change… on each hunk. A client write waiting for review shows instead on its file, which still
 * holds the old text: the lines it would remove highlighted as removed, the lines it would add in a note
 * (their text on hover), Keep / Undo on each. Every visible editor of a changed file follows the reviews
 * and the typing.
 */
export class EditorHunks implements vscode.Disposable, vscode.CodeLensProvider {
  private readonly shown = new Map<string, HunkView[]>();
  private readonly proposedShown = new Map<string, ProposedHunkView[]>();
  private readonly added = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
    borderColor: new vscode.ThemeColor('editorGutter.addedBackground'),
    borderStyle: 'solid',
    borderWidth: '0 0 0 3px',
  });
  private readonly removed = vscode.window.createTextEditorDecorationType({
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.deletedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
    after: {
      color: new vscode.ThemeColor('editorGutter.deletedBackground'),
      margin: '0 0 0 2em',
      fontStyle: 'italic',
    },
  });
  private readonly proposedRemoved = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('diffEditor.removedLineBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.deletedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
    borderColor: new vscode.ThemeColor('editorGutter.deletedBackground'),
    borderStyle: 'solid',
    borderWidth: '0 0 0 3px',
  });
  private readonly proposedAdded = vscode.window.createTextEditorDecorationType({
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
    after: {
      color: new vscode.ThemeColor('editorGutter.addedBackground'),
      margin: '0 0 0 2em',
      fontStyle: 'italic',
    },
  });
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly refreshed = new vscode.EventEmitter<void>();
  /** The hunks shown changed (the status bar's position follows). */
  readonly onDidRefresh = this.refreshed.event;
  private readonly subscriptions: vscode.Disposable[];
  private typing: ReturnType<typeof setTimeout> | undefined;
  private generation = 0;

  constructor(
    private readonly review: HunkReview,
    private readonly proposed: ProposedWriteHunks,
  ) {
    this.subscriptions = [
      this.added,
      this.removed,
      this.proposedRemoved,
      this.proposedAdded,
      { dispose: proposed.onDidChange(() => void this.refresh()).dispose },
      this.lensesChanged,
      this.refreshed,
      { dispose: review.onDidChange(() => void this.refresh()).dispose },
      vscode.window.onDidChangeVisibleTextEditors(() => void this.refresh()),
      vscode.workspace.onDidChangeTextDocument((event) => {
        const path = event.document.uri.fsPath;
        if (this.shown.has(path) || this.proposedShown.has(path)) {
          clearTimeout(this.typing);
          this.typing = setTimeout(() => void this.refresh(), REFRESH_AFTER_TYPING_MS);
        }
      }),
      vscode.languages.registerCodeLensProvider({ scheme: 'file' }, this),
    ];
  }

  /** The hunks of `path` as shown now (undefined: it has none to decide, or is not open). */
  hunksOf(path: string): readonly HunkView[] | undefined {
    return this.shown.get(path);
  }

  /** The hunks of the write waiting on `path` as shown now (undefined: none is shown there). */
  proposedHunksOf(path: string): readonly ProposedHunkView[] | undefined {
    return this.proposedShown.get(path);
  }

  /** Computes every visible changed file's hunks again and redraws them. */
  async refresh(): Promise<void> {
    const generation = ++this.generation;
    const editors = vscode.window.visibleTextEditors.filter(
      (editor) => editor.document.uri.scheme === 'file',
    );
    const proposed = new Map<string, ProposedHunkView[]>();
    for (const editor of editors) {
      const views = this.proposedViews(editor.document);
      if (views !== undefined) {
        proposed.set(editor.document.uri.fsPath, views);
      }
    }
    const changed = new Set(this.review.files().map((file) => file.path));
    const views = new Map<string, HunkView[]>();
    for (const path of new Set(editors.map((editor) => editor.document.uri.fsPath))) {
      const review =
        changed.has(path) && !proposed.has(path)
          ? await this.review.review(path).catch(() => undefined)
          : undefined;
      if (review !== undefined && !('refused' in review) && review.hunks.length > 0) {
        views.set(path, hunkViews(review));
      }
    }
    if (generation !== this.generation) {
      return; // a later refresh is under way
    }
    this.replace(this.shown, views);
    this.replace(this.proposedShown, proposed);
    for (const editor of editors) {
      const path = editor.document.uri.fsPath;
      this.decorate(editor, views.get(path) ?? []);
      this.decorateProposed(editor, proposed.get(path) ?? []);
    }
    this.lensesChanged.fire();
    this.refreshed.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const path = document.uri.fsPath;
    const lens = (line: number, title: string, command: string, args: unknown[]): vscode.CodeLens =>
      new vscode.CodeLens(new vscode.Range(line, 0, line, 0), { title, command, arguments: args });
    const proposed = (this.proposedShown.get(path) ?? []).flatMap((view) => {
      const args = [path, view.index, view.hunk, 'proposed'];
      return [
        lens(view.anchor, 'Keep', 'acpAgents.hunks.keep', args),
        lens(view.anchor, 'Undo', 'acpAgents.hunks.undo', args),
      ];
    });
    return proposed.concat(
      (this.shown.get(path) ?? []).flatMap((view) => {
        const args = [path, view.index, view.hunk];
        return [
          lens(view.anchor, 'Keep', 'acpAgents.hunks.keep', args),
          lens(view.anchor, 'Undo', 'acpAgents.hunks.undo', args),
          lens(view.anchor, 'Ask for a change…', 'acpAgents.hunks.askForChange', args),
        ];
      }),
    );
  }

  dispose(): void {
    clearTimeout(this.typing);
    this.subscriptions.forEach((subscription) => subscription.dispose());
  }

  /** The open hunks of the write waiting on `document`'s file, while the document holds the text it was proposed against. */
  proposedViews(document: vscode.TextDocument): ProposedHunkView[] | undefined {
    const review = this.proposed.review(document.uri.fsPath);
    if (review === undefined || review.current === null || document.getText() !== review.current) {
      return undefined; // a new file is not open; typed-over text is not what the write was made against
    }
    const views = proposedHunkViews(review.versions, review.open);
    return views.length > 0 ? views : undefined;
  }

  private replace<T>(map: Map<string, T>, by: ReadonlyMap<string, T>): void {
    map.clear();
    by.forEach((value, key) => map.set(key, value));
  }

  private decorateProposed(editor: vscode.TextEditor, hunks: readonly ProposedHunkView[]): void {
    editor.setDecorations(this.proposedRemoved, wholeLines(hunks.map((view) => view.removed)));
    editor.setDecorations(
      this.proposedAdded,
      hunks
        .filter((view) => view.added.length > 0 && view.anchor < editor.document.lineCount)
        .map((view) =>
          lineEndNote(editor.document, view.anchor, {
            text: `+ ${view.added.length} ${view.added.length === 1 ? 'line' : 'lines'} proposed`,
            hover: linesHover('Proposed by the agent (not written yet):', '+', view.added),
          }),
        ),
    );
  }

  private decorate(editor: vscode.TextEditor, hunks: readonly HunkView[]): void {
    editor.setDecorations(this.added, wholeLines(hunks.map((view) => view.added)));
    editor.setDecorations(
      this.removed,
      hunks
        .filter((view) => view.removed.length > 0 && view.anchor < editor.document.lineCount)
        .map((view) =>
          lineEndNote(editor.document, view.anchor, {
            text: `− ${view.removed.length} ${view.removed.length === 1 ? 'line' : 'lines'} removed`,
            hover: linesHover('Removed by the turn:', '-', view.removed),
          }),
        ),
    );
  }
}

/** The whole lines of each run given. */
function wholeLines(runs: readonly ({ first: number; last: number } | undefined)[]): vscode.Range[] {
  return runs.flatMap((run) => (run ? [new vscode.Range(run.first, 0, run.last, 0)] : []));
}

/** A note after the text of `line` (so it never pushes the code aside), its lines on hover. */
function lineEndNote(
  document: vscode.TextDocument,
  line: number,
  note: { readonly text: string; readonly hover: vscode.MarkdownString },
): vscode.DecorationOptions {
  const end = document.lineAt(line).range.end;
  return {
    range: new vscode.Range(end, end),
    hoverMessage: note.hover,
    renderOptions: { after: { contentText: note.text } },
  };
}

/** Lines on hover, as a diff (`sign`: `-` removed, `+` added). */
function linesHover(title: string, sign: '-' | '+', lines: readonly string[]): vscode.MarkdownString {
  const shown = lines.slice(0, 40).map((line) => `${sign} ${line}`);
  const more = lines.length > shown.length ? [`… ${lines.length - shown.length} more`] : [];
  return new vscode.MarkdownString()
    .appendMarkdown(title)
    .appendCodeblock([...shown, ...more].join('\n'), 'diff');
}
