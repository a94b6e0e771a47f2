import { strict as assert } from 'node:assert';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TurnMessage } from '../../../src/protocol';
import { type ChatHarness, until } from '../support/chatHarness';
import type { NodeWorkspaceChanges } from '../support/nodeWorkspaceChanges';
import { reviewedChat } from '../support/oneStore';
import { hashTree } from '../../support/hashTree';

describe('change review: Undo, Undo all and Restore never act outside the workspace nor delete what was there', () => {
  let chat: ChatHarness | undefined;
  let port: NodeWorkspaceChanges;
  let outside: string;
  let before: string;

  beforeEach(() => {
    // A folder the agent must not reach: its files have the names the workspace's files have.
    outside = mkdtempSync(path.join(os.tmpdir(), 'acp-outside-'));
    writeFileSync(path.join(outside, 'a.txt'), 'outside a\n');
    writeFileSync(path.join(outside, 'new.txt'), 'outside new\n');
    writeFileSync(path.join(outside, 'secret'), 'ssh key\n');
    before = hashTree(outside);
    chat = reviewedChat((made) => (port = made));
  });

  afterEach(async () => {
    await chat?.dispose();
    chat = undefined;
    rmSync(outside, { recursive: true, force: true });
  });

  const file = (name: string): string => path.join((chat as ChatHarness).dir, name);
  const turns = (): readonly TurnMessage[] => chat?.controller.viewState().chat?.thread.turns ?? [];
  const rowOf = (turn: TurnMessage | undefined, rel: string) =>
    turn?.changes?.files.find((f) => f.relativePath === rel);

  /** Runs a turn; `listed`: whether it leaves a change list to wait for (a link alone is not listed). */
  async function run(prompt: string, listed = true): Promise<void> {
    const count = turns().length;
    await chat!.send(prompt);
    await until(
      () =>
        turns().length === count + 1 &&
        // Every turn here changes files: it is done once its final list is recorded.
        turns().every(
          (t, i) =>
            t.status !== 'running' && (t.changes === undefined ? !listed && i === count : !t.changes.live),
        ),
      'the turn and its final change list',
    );
  }

  async function undoAll(turn: TurnMessage | undefined): Promise<void> {
    await chat!.controller.handleMessage({
      type: 'turn_changes',
      turnId: turn?.id as string,
      action: 'undo',
    });
  }

  it('Undo all after the agent swaps a folder for a link to outside in the same turn: outside unchanged, the card says why', async () => {
    mkdirSync(file('dir'));
    writeFileSync(file('dir/a.txt'), 'workspace a\n');
    await chat!.ready();
    await run(`own write dir/a.txt agent ; write dir/new.txt x ; link dir ${outside}`);
    const turn = turns()[0];
    assert.ok(rowOf(turn, 'dir/a.txt'), 'the file under the swapped folder is on the card');

    port.answer = false; // a question would be declined, as a dismissed dialog is
    await undoAll(turn);
    assert.deepEqual(port.confirmations, [], 'nothing of the user is at stake: no question');
    assert.equal(hashTree(outside), before, 'nothing outside the workspace was written, created or deleted');
    assert.equal(readlinkSync(file('dir')), outside, 'the link is left as it is');
    const row = rowOf(turns()[0], 'dir/a.txt');
    assert.equal(row?.decision, 'pending', 'a file left alone is not called undone');
    assert.match(row?.problem ?? '', /Left alone: dir\/ is now a link to a folder outside the workspace/);
    assert.match(
      port.informed.at(-1) ?? '',
      /Left alone: .*dir\/a\.txt \(dir\/ is now a link to a folder outside/,
    );
    // The link itself is on the card, and left: what the folder held is not recorded as a link's "before".
    assert.match(
      port.informed.at(-1) ?? '',
      /dir \(it is a link to .* now, and what was there is not recorded\)/,
    );
    assert.deepEqual(rowOf(turns()[0], 'dir')?.link, { target: outside, outside: true });
  });

  it('Undo of a created file after a later turn swaps its folder for a link: the outside file of that name survives', async () => {
    mkdirSync(file('dir'));
    await chat!.ready();
    await run('own write dir/new.txt created');
    await run(`own link dir ${outside}`);
    const first = turns()[0];
    assert.equal(rowOf(first, 'dir/new.txt')?.kind, 'created');

    await chat!.controller.handleMessage({
      type: 'turn_changes',
      turnId: first?.id as string,
      action: 'undo',
      path: file('dir/new.txt'),
    });
    assert.equal(hashTree(outside), before);
    assert.equal(readFileSync(path.join(outside, 'new.txt'), 'utf8'), 'outside new\n');
    assert.match(rowOf(turns()[0], 'dir/new.txt')?.problem ?? '', /dir\/ is now a link to a folder outside/);
  });

  it('Restore after a later turn swaps a folder for a link: the dialog says what is left alone, outside unchanged', async () => {
    mkdirSync(file('dir'));
    writeFileSync(file('dir/a.txt'), 'v0\n');
    writeFileSync(file('b.txt'), 'b0\n');
    await chat!.ready();
    await run('own write dir/a.txt v1 ; write b.txt b1');
    await run(`own link dir ${outside}`);

    await chat!.controller.handleMessage({ type: 'restore_checkpoint', turnId: turns()[0]?.id as string });
    assert.equal(hashTree(outside), before);
    assert.match(port.confirmations[0]?.detail ?? '', /dir\/a\.txt \(left alone: dir\/ is now a link/);
    assert.match(port.confirmations[0]?.message ?? '', /1 file will change/);
    assert.equal(readFileSync(file('b.txt'), 'utf8'), 'b0\n', 'what can be restored is');
    assert.match(
      port.informed.at(-1) ?? '',
      /Restored 1 file\. Left alone: .*dir\/a\.txt \(dir\/ is now a link/,
    );
  });

  it('a file the agent replaced by a link to outside is restored by replacing the link, not writing through it', async () => {
    writeFileSync(file('a.txt'), 'mine\n');
    await chat!.ready();
    await run(`own write a.txt agent ; link a.txt ${path.join(outside, 'secret')}`);
    assert.deepEqual(
      { kind: rowOf(turns()[0], 'a.txt')?.kind, link: rowOf(turns()[0], 'a.txt')?.link },
      { kind: 'modified', link: { target: path.join(outside, 'secret'), outside: true } },
      'a file replaced by a link is shown as such, not as deleted',
    );

    await undoAll(turns()[0]);
    assert.equal(hashTree(outside), before);
    assert.equal(lstatSync(file('a.txt')).isSymbolicLink(), false, 'the link is gone');
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'mine\n', 'the file is back as it was');
  });

  it('a file replaced by a link to outside and written through: the card says so and names every link; Undo all asks nothing', async () => {
    writeFileSync(file('notes.txt'), 'my notes\n');
    mkdirSync(file('docs'));
    await chat!.ready();
    const target = path.join(outside, 'a.txt');
    await run(
      `own link notes.txt ${target} ; append notes.txt written through the link\\n ; link shortcut ${outside} ; link docs/readme ../notes.txt`,
    );
    const turn = turns()[0];
    const rows = (turn?.changes?.files ?? []).map((f) => [f.relativePath, f.kind, f.link]);
    assert.deepEqual(rows, [
      ['docs/readme', 'created', { target: '../notes.txt', outside: true }],
      ['notes.txt', 'modified', { target, outside: true }],
      ['shortcut', 'created', { target: outside, outside: true }],
    ]);
    assert.equal(
      readFileSync(target, 'utf8'),
      'outside a\nwritten through the link\n',
      'the agent wrote outside',
    );
    const afterTurn = hashTree(outside);

    port.answer = false; // a question would be declined
    await undoAll(turn);
    assert.deepEqual(port.confirmations, [], 'nothing changed after the turn: nothing to ask');
    assert.equal(hashTree(outside), afterTurn, 'Undo wrote nothing outside');
    assert.equal(lstatSync(file('notes.txt')).isSymbolicLink(), false);
    assert.equal(readFileSync(file('notes.txt'), 'utf8'), 'my notes\n', 'back as the plain file it was');
    assert.equal(
      lstatSync(file('shortcut'), { throwIfNoEntry: false }),
      undefined,
      'the links it made are gone',
    );
    assert.equal(lstatSync(file('docs/readme'), { throwIfNoEntry: false }), undefined);
    assert.deepEqual(
      (turns()[0]?.changes?.files ?? []).map((f) => f.decision),
      ['undone', 'undone', 'undone'],
    );
  });

  it('Undo of a link pointed elsewhere after the turn asks first; declined, nothing moves', async () => {
    writeFileSync(file('real.txt'), 'real\n');
    await chat!.ready();
    await run('own link alias.txt real.txt');
    await run(`own delete alias.txt ; link alias.txt ${path.join(outside, 'secret')}`);

    port.answer = false;
    await undoAll(turns()[0]);
    assert.match(port.confirmations[0]?.detail ?? '', /alias\.txt/, 'the later edit of the link is named');
    assert.equal(readlinkSync(file('alias.txt')), path.join(outside, 'secret'), 'declined: the link stays');
    assert.equal(hashTree(outside), before);
    assert.equal(rowOf(turns()[0], 'alias.txt')?.decision, 'pending');
  });

  it('Restore to before a turn that made links removes them, puts the file back, and writes nothing outside', async () => {
    writeFileSync(file('notes.txt'), 'my notes\n');
    await chat!.ready();
    await run(
      `own link notes.txt ${path.join(outside, 'a.txt')} ; append notes.txt through\n ; link shortcut ${outside}`,
    );
    const afterTurn = hashTree(outside);

    await chat!.controller.handleMessage({ type: 'restore_checkpoint', turnId: turns()[0]?.id as string });
    assert.match(port.confirmations[0]?.message ?? '', /2 files will change/);
    assert.equal(hashTree(outside), afterTurn, 'Restore wrote and deleted nothing outside');
    assert.equal(lstatSync(file('notes.txt')).isSymbolicLink(), false);
    assert.equal(readFileSync(file('notes.txt'), 'utf8'), 'my notes\n');
    assert.equal(lstatSync(file('shortcut'), { throwIfNoEntry: false }), undefined, 'the link is gone');
    assert.equal(readFileSync(path.join(outside, 'secret'), 'utf8'), 'ssh key\n', 'its target is not');
  });

  it('a link inside the workspace is listed with its target, not called outside', async () => {
    writeFileSync(file('real.txt'), 'real\n');
    await chat!.ready();
    await run('own link alias.txt real.txt');
    assert.deepEqual(rowOf(turns()[0], 'alias.txt')?.link, { target: 'real.txt', outside: false });
    assert.equal(rowOf(turns()[0], 'alias.txt')?.kind, 'created');
  });

  it('Undo of a created file that is now a link to outside deletes the link, not its target', async () => {
    await chat!.ready();
    await run('own write new.txt x');
    await run(`own link new.txt ${path.join(outside, 'new.txt')}`, false);

    await chat!.controller.handleMessage({
      type: 'turn_changes',
      turnId: turns()[0]?.id as string,
      action: 'undo',
      path: file('new.txt'),
    });
    assert.equal(hashTree(outside), before);
    assert.equal(existsSync(file('new.txt')), false);
    assert.equal(lstatSync(file('new.txt'), { throwIfNoEntry: false }), undefined, 'the link itself is gone');
  });

  it('an agent that un-ignores existing files: Undo all and Restore leave them, and the card says why', async () => {
    writeFileSync(file('.gitignore'), 'build/\n.env\n');
    mkdirSync(file('build'));
    writeFileSync(file('build/out.js'), 'built\n');
    writeFileSync(file('.env'), 'SECRET=1\n');
    await chat!.ready();
    await run('own write .gitignore # nothing ignored\\n ; write new.txt x');
    const turn = turns()[0];
    assert.equal(rowOf(turn, '.env')?.kind, 'created', 'now visible, so listed');
    assert.equal(rowOf(turn, '.env')?.beforeUnknown, true, 'but it may have existed before');
    assert.equal(rowOf(turn, 'build/out.js')?.beforeUnknown, true);
    assert.equal(
      rowOf(turn, 'new.txt')?.beforeUnknown,
      undefined,
      'a file that was not ignored is known new',
    );

    await undoAll(turn);
    assert.equal(readFileSync(file('.env'), 'utf8'), 'SECRET=1\n', 'an existing file is never deleted');
    assert.equal(readFileSync(file('build/out.js'), 'utf8'), 'built\n');
    assert.equal(existsSync(file('new.txt')), false, 'a file the turn created is deleted');
    assert.equal(readFileSync(file('.gitignore'), 'utf8'), 'build/\n.env\n');
    assert.match(
      rowOf(turns()[0], '.env')?.problem ?? '',
      /ignored .* before the turn, so it may have existed/,
    );
    assert.equal(rowOf(turns()[0], '.env')?.decision, 'pending');
  });

  it('Restore after an agent un-ignored existing files keeps them', async () => {
    writeFileSync(file('.gitignore'), '*.local\n');
    writeFileSync(file('settings.local'), 'mine\n');
    await chat!.ready();
    await run('own write .gitignore #\\n');
    await chat!.controller.handleMessage({ type: 'restore_checkpoint', turnId: turns()[0]?.id as string });
    assert.equal(readFileSync(file('settings.local'), 'utf8'), 'mine\n');
    assert.equal(readFileSync(file('.gitignore'), 'utf8'), '*.local\n');
  });

  it('Undo all restores every file it can when one cannot be put back, and the card matches the disk', async () => {
    writeFileSync(file('a.txt'), 'a0\n');
    writeFileSync(file('b.txt'), 'b0\n');
    await chat!.ready();
    await run('own write a.txt a1 ; write b.txt b1');
    // The user (or another program) puts a folder where b.txt was: it cannot be written back.
    rmSync(file('b.txt'));
    mkdirSync(file('b.txt'));

    await undoAll(turns()[0]);
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'a0\n');
    assert.equal(lstatSync(file('b.txt')).isDirectory(), true, 'the folder is left');
    const rows = turns()[0]?.changes?.files ?? [];
    assert.deepEqual(
      rows.map((r) => `${r.relativePath} ${r.decision}${r.problem ? ` ${r.problem}` : ''}`).sort(),
      ['a.txt undone', 'b.txt pending Left alone: it is now a folder.'],
    );
  });

  it('refuses to undo an earlier turn while a later turn of the same chat runs, and says why', async () => {
    writeFileSync(file('a.txt'), 'a0\n');
    await chat!.ready();
    await run('own write a.txt a1');
    const sending = chat!.send('own write a.txt a2 ; shell sleep 1');
    await until(() => turns()[1]?.status === 'running', 'the later turn to run');
    await chat!.controller.handleMessage({
      type: 'turn_changes',
      turnId: turns()[0]?.id as string,
      action: 'undo',
    });
    assert.match(
      chat!.view.of('error').at(-1)?.message ?? '',
      /A later turn of this chat is running: wait for it to end \(or stop it\) to undo/,
    );
    await sending;
    assert.equal(rowOf(turns()[0], 'a.txt')?.decision, 'pending', 'not called undone');
    assert.equal(
      readFileSync(file('a.txt'), 'utf8'),
      'a2',
      "the later turn's content is not undone under it",
    );
  });
});
