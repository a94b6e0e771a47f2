import * as vscode from 'vscode';
import { hunkViews, type HunkView } from '../core/hunkRanges';
import type { HunkReview } from '../chat/hunkReview';

/** Typing in a changed file: its hunks are computed again once it pauses this long. */
const REFRESH_AFTER_TYPING_MS = 150;

/**
 * The reviewed turn's hunks in the normal editor: added lines highlighted (and marked in the overview
 * ruler), removed lines marked on the line where they were, their text on hover; a CodeLens Keep / Undo /
 * Ask for a change… on each hunk. Every visible editor of a changed file follows the review and the typing.
 */
export class EditorHunks implements vscode.Disposable, vscode.CodeLensProvider {
  private readonly shown = new Map<string, HunkView[]>();
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
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly refreshed = new vscode.EventEmitter<void>();
  /** The hunks shown changed (the status bar's position follows). */
  readonly onDidRefresh = this.refreshed.event;
  private readonly subscriptions: vscode.Disposable[];
  private typing: ReturnType<typeof setTimeout> | undefined;
  private generation = 0;

  constructor(private readonly review: HunkReview) {
    this.subscriptions = [
      this.added,
      this.removed,
      this.lensesChanged,
      this.refreshed,
      { dispose: review.onDidChange(() => void this.refresh()).dispose },
      vscode.window.onDidChangeVisibleTextEditors(() => void this.refresh()),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (this.shown.has(event.document.uri.fsPath)) {
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

  /** Computes every visible changed file's hunks again and redraws them. */
  async refresh(): Promise<void> {
    const generation = ++this.generation;
    const changed = new Set(this.review.files().map((file) => file.path));
    const editors = vscode.window.visibleTextEditors.filter(
      (editor) => editor.document.uri.scheme === 'file',
    );
    const views = new Map<string, HunkView[]>();
    for (const path of new Set(editors.map((editor) => editor.document.uri.fsPath))) {
      const review = changed.has(path) ? await this.review.review(path).catch(() => undefined) : undefined;
      if (review !== undefined && !('refused' in review) && review.hunks.length > 0) {
        views.set(path, hunkViews(review));
      }
    }
    if (generation !== this.generation) {
      return; // a later refresh is under way
    }
    this.shown.clear();
    views.forEach((hunks, path) => this.shown.set(path, hunks));
    for (const editor of editors) {
      this.decorate(editor, views.get(editor.document.uri.fsPath) ?? []);
    }
    this.lensesChanged.fire();
    this.refreshed.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const path = document.uri.fsPath;
    return (this.shown.get(path) ?? []).flatMap((view) => {
      const range = new vscode.Range(view.anchor, 0, view.anchor, 0);
      const args = [path, view.index, view.hunk];
      return [
        new vscode.CodeLens(range, { title: 'Keep', command: 'acpAgents.hunks.keep', arguments: args }),
        new vscode.CodeLens(range, { title: 'Undo', command: 'acpAgents.hunks.undo', arguments: args }),
        new vscode.CodeLens(range, {
          title: 'Ask for a change…',
          command: 'acpAgents.hunks.askForChange',
          arguments: args,
        }),
      ];
    });
  }

  dispose(): void {
    clearTimeout(this.typing);
    this.subscriptions.forEach((subscription) => subscription.dispose());
  }

  private decorate(editor: vscode.TextEditor, hunks: readonly HunkView[]): void {
    editor.setDecorations(
      this.added,
      hunks.flatMap((view) =>
        view.added ? [new vscode.Range(view.added.first, 0, view.added.last, 0)] : [],
      ),
    );
    editor.setDecorations(
      this.removed,
      hunks
        .filter((view) => view.removed.length > 0)
        .filter((view) => view.anchor < editor.document.lineCount)
        .map((view) => ({
          // After the line's text: the note never pushes the code aside.
          range: editor.document
            .lineAt(view.anchor)
            .range.with({ start: editor.document.lineAt(view.anchor).range.end }),
          hoverMessage: removedHover(view.removed),
          renderOptions: {
            after: {
              contentText: `− ${view.removed.length} ${view.removed.length === 1 ? 'line' : 'lines'} removed`,
            },
          },
        })),
    );
  }
}

/** The removed lines on hover, as a diff. */
function removedHover(lines: readonly string[]): vscode.MarkdownString {
  const shown = lines.slice(0, 40).map((line) => `- ${line}`);
  const more = lines.length > shown.length ? [`… ${lines.length - shown.length} more`] : [];
  return new vscode.MarkdownString()
    .appendMarkdown('Removed by the turn:')
    .appendCodeblock([...shown, ...more].join('\n'), 'diff');
}
