/**
 * Issue 4: the agent's file access through VS Code (fs/read_text_file, fs/write_text_file) with the
 * demo agent's `fs read|write` scenarios — unsaved editor text, line/limit, missing, large and binary
 * files, undoable writes that are saved, new folders, dirty-buffer conflicts and the workspace boundary
 * (also through `..` and a symbolic link). Dialogs are answered through the extension's prompts seam.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { eventually, Settings, useWorkspaceFolder, workspaceRoot } from './support/harness';
import { useDemoChats } from './support/demoChats';

/** What the agent is told after a refusal's message (code -32001): the next step and `data.reason`. */
const OUTSIDE =
  'Only files inside the workspace folders can be used without the user allowing it; use a path inside the workspace. data {"reason":"outside_workspace"}';
const UNSUPPORTED =
  'The same request will be refused again; change what is asked. data {"reason":"unsupported"}';
const DECLINED =
  'The user declined this; do not retry it as is — ask the user how to proceed. data {"reason":"user_declined"}';

const REPLACE = 'Replace my changes';
const ALLOW = 'Allow';

describe('files: reads and writes through the editor (issue 4)', () => {
  const suite = useDemoChats({ closeEditors: true });
  const folder = useWorkspaceFolder('files');
  const settings = new Settings();
  /** This VS Code saves dirty editors after a second by default (files.autoSave: afterDelay). */
  const fileSettings = new Settings('files');
  /** Paths outside the workspace created by a test, removed after it. */
  let outside: string[] = [];

  before(async () => {
    await settings.set('edits.review', 'auto');
    // Unsaved editor text must stay unsaved for as long as a test looks at it.
    await fileSettings.set('autoSave', 'off');
  });

  after(async () => {
    await settings.restore();
    await fileSettings.restore();
  });

  beforeEach(() => {
    outside = [];
  });

  afterEach(() => {
    for (const target of outside) {
      rmSync(target, { recursive: true, force: true });
    }
  });

  /** Opens `file` in an editor and replaces its text without saving. */
  async function editWithoutSaving(file: string, text: string): Promise<vscode.TextDocument> {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const editor = await vscode.window.showTextDocument(document);
    const whole = new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length));
    assert.ok(await editor.edit((edit) => edit.replace(whole, text)), 'the editor edit failed');
    assert.equal(document.isDirty, true);
    assert.equal(document.getText(), text);
    return document;
  }

  function outsideDir(): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'acp-it-outside-'));
    outside.push(dir);
    return dir;
  }

  it('reads the unsaved text of an open editor, not the disk', async () => {
    const file = folder.file('unsaved.ts');
    writeFileSync(file, 'export const onDisk = 1;\n');
    const document = await editWithoutSaving(file, 'export const unsaved = 2;\n// not saved yet\n');

    const { turn, reply } = await suite.ask(`fs read ${file}`);
    assert.equal(turn.status, 'completed');
    assert.equal(reply, 'export const unsaved = 2;\n// not saved yet\n');
    assert.equal(document.isDirty, true, 'reading must not save the editor');
    assert.equal(readFileSync(file, 'utf8'), 'export const onDisk = 1;\n');
    assert.deepEqual(suite.prompts.asked, [], 'a read inside the workspace asks nothing');
  });

  it('reads the lines asked for with line and limit', async () => {
    const file = folder.file('lines.txt');
    writeFileSync(file, 'one\ntwo\nthree\nfour\n');

    assert.equal((await suite.ask(`fs read ${file} 2 2`)).reply, 'two\nthree\n');
    assert.equal((await suite.ask(`fs read ${file} 3`)).reply, 'three\nfour\n');
    assert.equal((await suite.ask(`fs read ${file} 1 1`)).reply, 'one\n');
    assert.equal((await suite.ask(`fs read ${file}`)).reply, 'one\ntwo\nthree\nfour\n');
  });

  it('answers a missing file with resource-not-found (-32002)', async () => {
    const file = folder.file('missing.txt');
    const { turn, reply } = await suite.ask(`fs read ${file}`);
    assert.equal(turn.status, 'completed');
    assert.equal(
      reply,
      `read error -32002: Resource not found: ${file} data ${JSON.stringify({ uri: file })}`,
    );
  });

  it('refuses a file over acpAgents.files.maxReadBytes with a clear message', async () => {
    await suite.settings.set('files.maxReadBytes', 1024);
    const file = folder.file('large.txt');
    writeFileSync(file, 'x'.repeat(5000));

    const { reply } = await suite.ask(`fs read ${file}`);
    assert.equal(
      reply,
      `read error -32001: ${file} is 5 KB, over the 1 KB limit for reading files (setting acpAgents.files.maxReadBytes). ${UNSUPPORTED}`,
    );
  });

  it('refuses a binary file', async () => {
    const file = folder.file('image.png');
    writeFileSync(
      file,
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]),
    );

    const { reply } = await suite.ask(`fs read ${file}`);
    assert.equal(
      reply,
      `read error -32001: ${file} is a binary file; only text files can be read. ${UNSUPPORTED}`,
    );
  });

  it('with review "auto" applies a write as an undoable edit and saves it', async () => {
    const file = folder.file('auto.txt');
    writeFileSync(file, 'old text\n');

    const { turn, reply } = await suite.ask(`fs write ${file} new text\\nline 2`);
    assert.equal(turn.status, 'completed');
    assert.equal(reply, 'wrote 15 chars');
    assert.equal(readFileSync(file, 'utf8'), 'new text\nline 2', 'the write is saved to disk');
    const document = vscode.workspace.textDocuments.find((doc) => doc.uri.fsPath === file);
    assert.ok(document, 'the write went through a text document');
    assert.equal(document.isDirty, false);

    // Undo in that editor brings the old text back.
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('undo');
    await eventually('undo to restore the old text', () => document.getText() === 'old text\n');
    assert.equal(document.isDirty, true, 'the undone text is not saved yet');
    assert.deepEqual(suite.prompts.asked, []);
  });

  it('creates a new file in folders that do not exist yet', async () => {
    const file = path.join(folder.path, 'new', 'deeper', 'created.md');
    const { reply } = await suite.ask(`fs write ${file} # Created\\n`);
    assert.equal(reply, 'wrote 10 chars');
    assert.equal(readFileSync(file, 'utf8'), '# Created\n');
  });

  it('asks before replacing unsaved editor changes; dismissing keeps the user text', async () => {
    const file = folder.file('conflict.txt');
    writeFileSync(file, 'saved\n');
    const document = await editWithoutSaving(file, 'my unsaved work\n');

    const { turn, reply } = await suite.ask(`fs write ${file} agent version`);
    assert.equal(turn.status, 'completed');
    assert.deepEqual(suite.prompts.asked, [
      {
        kind: 'modal',
        message: "conflict.txt has unsaved changes. Replace them with the agent's version?",
        detail:
          'Your unsaved changes would be lost. Choose "Replace my changes" to apply the agent\'s edit anyway.',
        choices: [REPLACE],
      },
    ]);
    assert.equal(
      reply,
      `write error -32001: ${file} has unsaved changes in the editor; the user kept them. ${DECLINED}`,
    );
    assert.equal(document.getText(), 'my unsaved work\n', 'the buffer keeps the user text');
    assert.equal(document.isDirty, true);
    assert.equal(readFileSync(file, 'utf8'), 'saved\n', 'the disk is untouched');
  });

  it('replaces unsaved editor changes when the user says "Replace my changes"', async () => {
    const file = folder.file('conflict-replace.txt');
    writeFileSync(file, 'saved\n');
    const document = await editWithoutSaving(file, 'my unsaved work\n');
    suite.prompts.answerModal(REPLACE);

    const { reply } = await suite.ask(`fs write ${file} agent version`);
    assert.equal(suite.prompts.questions('modal').length, 1);
    assert.equal(reply, 'wrote 13 chars');
    assert.equal(document.getText(), 'agent version');
    assert.equal(document.isDirty, false, 'the replaced buffer is saved');
    assert.equal(readFileSync(file, 'utf8'), 'agent version');
  });

  it('refuses a write outside the workspace unless the user allows it (dismissed by default)', async () => {
    const file = path.join(outsideDir(), 'outside.txt');

    const { reply } = await suite.ask(`fs write ${file} secret`);
    assert.deepEqual(suite.prompts.asked, [
      {
        kind: 'modal',
        message: `The agent wants to write a file outside the workspace: ${file}`,
        detail:
          'Files outside the open workspace folders are refused unless you allow it, also when reached through ".." or a symbolic link.',
        choices: [ALLOW],
      },
    ]);
    assert.equal(
      reply,
      `write error -32001: Access to ${file} was refused: it is outside the workspace. ${OUTSIDE}`,
    );
    assert.equal(existsSync(file), false, 'nothing was written');
  });

  it('writes and reads outside the workspace when the modal answers "Allow"', async () => {
    const file = path.join(outsideDir(), 'allowed.txt');
    suite.prompts.answerModal(ALLOW, ALLOW);

    const write = await suite.ask(`fs write ${file} allowed text`);
    assert.equal(write.reply, 'wrote 12 chars');
    assert.equal(readFileSync(file, 'utf8'), 'allowed text');
    const read = await suite.ask(`fs read ${file}`);
    assert.equal(read.reply, 'allowed text');
    assert.deepEqual(
      suite.prompts.asked.map((question) => question.message),
      [
        `The agent wants to write a file outside the workspace: ${file}`,
        `The agent wants to read a file outside the workspace: ${file}`,
      ],
    );
  });

  it('counts a ".." path that leaves the workspace as outside', async () => {
    const name = `.acp-it-dotdot-${process.pid}-${Date.now().toString(36)}.txt`;
    const sneaky = `${workspaceRoot()}/../${name}`;
    const real = path.resolve(workspaceRoot(), '..', name);
    outside.push(real);

    const { reply } = await suite.ask(`fs write ${sneaky} escaped`);
    assert.deepEqual(
      suite.prompts.asked.map((question) => question.message),
      [`The agent wants to write a file outside the workspace: ${sneaky}`],
    );
    assert.equal(
      reply,
      `write error -32001: Access to ${sneaky} was refused: it is outside the workspace. ${OUTSIDE}`,
    );
    assert.equal(existsSync(real), false, 'nothing was written next to the workspace');
  });

  it('counts a symbolic link inside the workspace that points outside as outside', async () => {
    const target = outsideDir();
    writeFileSync(path.join(target, 'secret.txt'), 'top secret\n');
    const link = folder.file('link-out');
    symlinkSync(target, link, 'dir');

    const read = await suite.ask(`fs read ${link}/secret.txt`);
    assert.equal(
      read.reply,
      `read error -32001: Access to ${link}/secret.txt was refused: it is outside the workspace. ${OUTSIDE}`,
    );
    const write = await suite.ask(`fs write ${link}/planted.txt planted`);
    assert.equal(
      write.reply,
      `write error -32001: Access to ${link}/planted.txt was refused: it is outside the workspace. ${OUTSIDE}`,
    );
    assert.equal(existsSync(path.join(target, 'planted.txt')), false, 'nothing was written through the link');
    assert.deepEqual(
      suite.prompts.asked.map((question) => question.message),
      [
        `The agent wants to read a file outside the workspace: ${link}/secret.txt`,
        `The agent wants to write a file outside the workspace: ${link}/planted.txt`,
      ],
    );
  });
});
