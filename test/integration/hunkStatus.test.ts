/**
 * The hunk review's status bar ("Change 3 of 12 · file 2 of 5") follows every cursor move: its cost must not
 * grow with the reviewed turn when the cursor is elsewhere. Moving in a file the turn did not change reads
 * none of the turn's files; in a changed one, a burst of moves is counted a bounded number of times, and the
 * status still says where the cursor ended.
 */
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { eventually } from './support/harness';
import { useDemoChats } from './support/demoChats';
import { closeAllEditors, useWorkspaceFolder } from './support/workspace';

const FILES = 12;
const LINES = 'one\ntwo\nthree\nfour\nfive\nsix\n';

describe('hunk review status bar: its cost follows the cursor, not the turn', () => {
  const suite = useDemoChats();
  const folder = useWorkspaceFolder('hunk-status');
  let reads = 0;
  /** While set, every read of a changed file waits for it: a count then lasts as long as the test says. */
  let held: Promise<void> | undefined;
  let restore: () => void = () => undefined;

  beforeEach(async () => {
    await closeAllEditors();
    const review = suite.api.hunks.review;
    const original = review.review.bind(review);
    review.review = async (path) => {
      reads++;
      await held;
      return original(path);
    };
    restore = () => {
      review.review = original;
    };
    reads = 0;
    held = undefined;
  });

  afterEach(async () => {
    restore();
    await closeAllEditors();
  });

  /** A finished turn that changed the second line of FILES files itself, left to decide; their paths. */
  async function turnChangingMany(): Promise<string[]> {
    const paths = Array.from({ length: FILES }, (_, index) => folder.file(`f${index}.txt`));
    paths.forEach((path) => writeFileSync(path, LINES));
    const steps = paths.map(
      (path, index) => `${index === 0 ? 'own ' : ''}write ${path} one\\nTWO\\nthree\\nfour\\nfive\\nsix\\n`,
    );
    await (
      await suite.begin(steps.join(' ; '))
    ).done;
    await eventually('the turn to review', () => suite.api.hunks.review.files().length === FILES);
    return paths;
  }

  /** Puts the cursor of `editor` on `line` and waits until VS Code reported it (each move its own event). */
  async function moveTo(editor: vscode.TextEditor, line: number): Promise<void> {
    const reported = new Promise<void>((resolve) => {
      const listening = vscode.window.onDidChangeTextEditorSelection((event) => {
        if (event.textEditor === editor && event.selections[0]?.active.line === line) {
          listening.dispose();
          resolve();
        }
      });
    });
    editor.selection = new vscode.Selection(line, 0, line, 0);
    await reported;
  }

  /** Moves the cursor of `editor` down and up `times` times, as arrow keys do (never line 0). */
  async function move(editor: vscode.TextEditor, times: number): Promise<void> {
    for (let step = 0; step < times; step++) {
      await moveTo(editor, (step % 5) + 1);
    }
  }

  it('moving in a file the turn did not change reads none of its files', async () => {
    const [first] = await turnChangingMany();
    const other = folder.file('other.txt');
    writeFileSync(other, LINES);
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(other));
    const before = reads;
    await move(editor, 30);
    // Then into a changed file: its status shows once every move before it was handled (events keep their order).
    await vscode.window.showTextDocument(vscode.Uri.file(first!));
    await eventually(
      'the status bar at the first change',
      () => suite.api.hunks.overlay.status === `Change 1 of ${FILES} · file 1 of ${FILES}`,
    );
    // Opening the changed file counts every file's hunks a few times (open, draw, cursor); the 30 moves none.
    assert.ok(reads - before <= 4 * FILES, `${reads - before} reads of the turn's files`);
  });

  it('moves made while the status is being counted are counted once, ending where the cursor is', async () => {
    const [first] = await turnChangingMany();
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(first!));
    await eventually('the status bar', () => suite.api.hunks.overlay.status !== undefined);
    const before = reads;
    // The first move's count waits on its first read (a slow disk) while 30 more moves are made.
    let release: () => void = () => undefined;
    held = new Promise((resolve) => (release = resolve));
    await move(editor, 30);
    await moveTo(editor, 1);
    release();
    await eventually(
      'the status bar at the first change',
      () => suite.api.hunks.overlay.status === `Change 1 of ${FILES} · file 1 of ${FILES}`,
    );
    // The count running, then one for the moves made meanwhile: each reads the files not drawn (all but one).
    assert.ok(reads - before <= 2 * FILES, `${reads - before} reads of the turn's files for 31 moves`);
  });
});
