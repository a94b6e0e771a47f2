/**
 * Issue 8: an agent that writes files by itself (never through fs/write_text_file) leaves a record of
 * every change in the chat — the turn's change card — that can be diffed, kept, undone per file or for
 * all, and a checkpoint before each message to restore; the user's own git repository is never touched.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TurnMessage } from '../../src/protocol';
import { allTabs, closeAllEditors, eventually, useWorkspaceFolder, workspaceRoot } from './support/harness';
import { useDemoChats } from './support/demoChats';

/** CRLF, no final newline and a byte that is not UTF-8: only an exact restore gets these back. */
const AWKWARD = Buffer.concat([Buffer.from('one\r\ntwo\r\n'), Buffer.from([0xff]), Buffer.from('end')]);

/** What a user would check of their repository: HEAD, the index, the status, the stash. */
function repositoryState(): string {
  const git = (...args: string[]): string =>
    execFileSync('git', ['--no-optional-locks', ...args], { cwd: workspaceRoot(), encoding: 'utf8' });
  return [
    git('rev-parse', 'HEAD'),
    git('ls-files', '--stage', '--', '.'),
    git('status', '--porcelain', '--untracked-files=all', '--', '.'),
    git('stash', 'list'),
  ].join('\n--\n');
}

function isRepository(): boolean {
  try {
    return (
      execFileSync('git', ['rev-parse', '--is-inside-work-tree'], {
        cwd: workspaceRoot(),
        encoding: 'utf8',
      }).trim() === 'true'
    );
  } catch {
    return false;
  }
}

describe('changes by an agent that writes files itself: change card, Keep / Undo, checkpoints (issue 8)', () => {
  const suite = useDemoChats({ closeEditors: true });
  const folder = useWorkspaceFolder('changes');

  beforeEach(async () => {
    await closeAllEditors();
  });

  /** The turn's change card once it is final, with only this test's files. */
  async function finalChanges(turnId: string): Promise<NonNullable<TurnMessage['changes']>> {
    return eventually(`the final change list of ${turnId}`, () => {
      const changes = suite.thread().turns.find((turn) => turn.id === turnId)?.changes;
      return changes && !changes.live ? changes : undefined;
    });
  }

  function mine(changes: NonNullable<TurnMessage['changes']>): string[] {
    return changes.files
      .filter((file) => file.path.startsWith(folder.path))
      .map((file) => `${file.kind} ${file.path.slice(folder.path.length + 1)} ${file.decision}`)
      .sort();
  }

  it('lists the files, undoes one byte for byte with its open editor following, then undoes all', async () => {
    const repositoryBefore = isRepository() ? repositoryState() : undefined;
    fs.writeFileSync(folder.file('awkward.txt'), AWKWARD);
    fs.writeFileSync(folder.file('b.txt'), 'b\n');
    const { turn } = await suite.ask(
      `own write ${folder.file('awkward.txt')} agent text ; write ${folder.file('new.txt')} created ; delete ${folder.file('b.txt')}`,
    );
    const changes = await finalChanges(turn.id);
    assert.deepEqual(mine(changes), [
      'created new.txt pending',
      'deleted b.txt pending',
      'modified awkward.txt pending',
    ]);
    const listed = changes.files.find((file) => file.path === folder.file('awkward.txt'));
    assert.equal(listed?.relativePath.endsWith('awkward.txt'), true);
    assert.equal(listed?.relativePath.startsWith('/'), false, 'paths are shown workspace-relative');

    const editor = await vscode.window.showTextDocument(vscode.Uri.file(folder.file('awkward.txt')));
    assert.equal(editor.document.getText(), 'agent text');
    await suite.api.chat.handleMessage({
      type: 'turn_changes',
      turnId: turn.id,
      action: 'undo',
      path: folder.file('awkward.txt'),
    });
    assert.deepEqual(fs.readFileSync(folder.file('awkward.txt')), AWKWARD);
    await eventually('the open editor to show the restored file', () =>
      editor.document.getText().startsWith('one'),
    );
    assert.equal(
      fs.readFileSync(folder.file('new.txt'), 'utf8'),
      'created',
      'other files wait for their own decision',
    );

    await suite.api.chat.handleMessage({ type: 'turn_changes', turnId: turn.id, action: 'undo' });
    assert.equal(fs.existsSync(folder.file('new.txt')), false);
    assert.equal(fs.readFileSync(folder.file('b.txt'), 'utf8'), 'b\n');
    assert.deepEqual(mine(await finalChanges(turn.id)), [
      'created new.txt undone',
      'deleted b.txt undone',
      'modified awkward.txt undone',
    ]);
    assert.equal(
      suite.prompts.asked.filter((q) => q.kind === 'modal').length,
      0,
      'nothing of the user was at stake',
    );

    if (repositoryBefore !== undefined) {
      folder.dispose();
      assert.equal(repositoryState(), repositoryBefore, "the user's repository is unchanged");
    }
  });

  it('lists a running turn’s changes as the agent makes them, in one turn and the next', async () => {
    // Each turn writes its file, then waits for a file outside the workspace that the test makes once the
    // list showed the write: only the workspace's watcher can list it before the turn ends.
    const signals = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-live-'));
    try {
      for (const name of ['first.txt', 'second.txt']) {
        const go = path.join(signals, `${name}.go`);
        const running = await suite.begin(
          `own write ${folder.file(name)} made ; shell until [ -e ${go} ]; do sleep 0.05; done`,
        );
        try {
          await eventually(`${name} listed while its turn runs`, () => {
            const changes = suite.thread().turns.find((turn) => turn.id === running.turnId)?.changes;
            return changes?.live && mine(changes).includes(`created ${name} pending`) ? true : undefined;
          });
        } finally {
          fs.writeFileSync(go, '');
        }
        await running.done;
        assert.deepEqual(mine(await finalChanges(running.turnId)), [`created ${name} pending`]);
      }
    } finally {
      fs.rmSync(signals, { recursive: true, force: true });
    }
  });

  it('Undo all after the agent swaps a folder for a link to outside: nothing outside changes, the card says why', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-outside-'));
    try {
      fs.writeFileSync(path.join(outside, 'a.txt'), 'outside\n');
      const snapshotOutside = (): string =>
        fs
          .readdirSync(outside)
          .sort()
          .map((name) => `${name}=${fs.readFileSync(path.join(outside, name), 'utf8')}`)
          .join('|');
      const before = snapshotOutside();
      fs.mkdirSync(folder.file('dir'));
      fs.writeFileSync(folder.file('dir/a.txt'), 'mine\n');
      const { turn } = await suite.ask(
        `own write ${folder.file('dir/a.txt')} agent ; write ${folder.file('dir/new.txt')} x ; link ${folder.file('dir')} ${outside}`,
      );
      await finalChanges(turn.id);
      const asked = suite.prompts.asked.length;
      await suite.api.chat.handleMessage({ type: 'turn_changes', turnId: turn.id, action: 'undo' });
      assert.deepEqual(
        suite.prompts.asked.slice(asked).filter((q) => q.kind === 'modal'),
        [],
        'a file left alone loses nothing: no question',
      );
      assert.equal(
        snapshotOutside(),
        before,
        'nothing outside the workspace was written, created or deleted',
      );
      // The card follows the disk: the file left alone says why (the view state catches up with the thread).
      const row = await eventually('the card to say why dir/a.txt was left', () =>
        suite
          .thread()
          .turns.find((t) => t.id === turn.id)
          ?.changes?.files.find(
            (file) => file.path === folder.file('dir/a.txt') && file.problem !== undefined,
          ),
      );
      assert.equal(row.decision, 'pending');
      assert.match(
        row.problem ?? '',
        /Left alone: (.+\/)?dir\/ is now a link to a folder outside the workspace/,
      );
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('Restore asks before dropping unsaved editor text: declining leaves it, restoring shows the file as it was', async () => {
    fs.writeFileSync(folder.file('r.txt'), 'v0\n');
    const first = await suite.ask(`own write ${folder.file('r.txt')} v1`);
    await finalChanges(first.turn.id);
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(folder.file('r.txt')));
    await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), 'unsaved '));
    assert.equal(editor.document.isDirty, true);

    suite.prompts.answerModal(undefined); // dismissed: keep my unsaved text
    await suite.api.chat.handleMessage({ type: 'restore_checkpoint', turnId: first.turn.id });
    assert.match(suite.prompts.asked.at(-1)?.message ?? '', /Unsaved changes in 1 open editor will be lost/);
    assert.match(suite.prompts.asked.at(-1)?.detail ?? '', /r\.txt \(restored, unsaved changes lost\)/);
    assert.equal(editor.document.getText(), 'unsaved v1', 'declining leaves the unsaved text');
    assert.equal(editor.document.isDirty, true);
    assert.equal(fs.readFileSync(folder.file('r.txt'), 'utf8'), 'v1');

    suite.prompts.answerModal('Restore');
    await suite.api.chat.handleMessage({ type: 'restore_checkpoint', turnId: first.turn.id });
    assert.equal(
      fs.readFileSync(folder.file('r.txt'), 'utf8'),
      'v0\n',
      'the exact bytes, nothing formatted or saved over them',
    );
    await eventually('the editor to show the restored file, saved', () =>
      editor.document.getText() === 'v0\n' && !editor.document.isDirty ? true : undefined,
    );
  });

  it('opens one diff and all of them in the multi-file diff editor', async () => {
    fs.writeFileSync(folder.file('a.txt'), 'a\n');
    const { turn } = await suite.ask(`own write ${folder.file('a.txt')} A ; write ${folder.file('c.txt')} C`);
    await finalChanges(turn.id);
    await suite.api.chat.handleMessage({
      type: 'turn_changes',
      turnId: turn.id,
      action: 'diff',
      path: folder.file('a.txt'),
    });
    const diff = await eventually('the diff tab', () =>
      allTabs().find(
        (tab) =>
          tab.input instanceof vscode.TabInputTextDiff && tab.input.original.scheme === 'acp-checkpoint',
      ),
    );
    const input = diff.input as vscode.TabInputTextDiff;
    assert.equal(
      (await vscode.workspace.openTextDocument(input.original)).getText(),
      'a\n',
      'the left side is the file before the turn',
    );
    await suite.api.chat.handleMessage({ type: 'turn_changes', turnId: turn.id, action: 'diff' });
    await eventually('the multi-file diff editor', () =>
      allTabs().find((tab) => /Agent changes/.test(tab.label)),
    );
  });

  it('asks before undoing a file the user edited since, and restores to before an earlier message', async () => {
    fs.writeFileSync(folder.file('a.txt'), 'v0\n');
    const first = await suite.ask(`own write ${folder.file('a.txt')} v1`);
    await finalChanges(first.turn.id);
    const second = await suite.ask(
      `own write ${folder.file('a.txt')} v2 ; shell printf x > ${folder.file('made-by-shell.txt')}`,
    );
    assert.deepEqual(mine(await finalChanges(second.turn.id)), [
      'created made-by-shell.txt pending',
      'modified a.txt pending',
    ]);

    fs.writeFileSync(folder.file('a.txt'), 'my edit\n');
    suite.prompts.answerModal(undefined); // dismissed: keep my edit
    await suite.api.chat.handleMessage({
      type: 'turn_changes',
      turnId: second.turn.id,
      action: 'undo',
      path: folder.file('a.txt'),
    });
    assert.equal(fs.readFileSync(folder.file('a.txt'), 'utf8'), 'my edit\n');
    assert.match(suite.prompts.asked.at(-1)?.message ?? '', /changed after the agent's turn/);

    suite.prompts.answerModal('Restore');
    await suite.api.chat.handleMessage({ type: 'restore_checkpoint', turnId: first.turn.id });
    assert.match(suite.prompts.asked.at(-1)?.message ?? '', /Restore the workspace to before this message/);
    assert.match(suite.prompts.asked.at(-1)?.detail ?? '', /made-by-shell\.txt/);
    assert.equal(fs.readFileSync(folder.file('a.txt'), 'utf8'), 'v0\n');
    assert.equal(fs.existsSync(folder.file('made-by-shell.txt')), false);
    const restored = suite.thread().turns.find((turn) => turn.id === first.turn.id);
    assert.ok(restored?.restoredAt, 'the transcript is marked from the restored message');
    assert.deepEqual(mine(await finalChanges(second.turn.id)), [
      'created made-by-shell.txt undone',
      'modified a.txt undone',
    ]);
  });
});
