import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TurnMessage } from '../../../src/protocol';
import { until } from '../support/chatHarness';
import { useReviewedChat } from '../support/oneStore';
import { hashTree } from '../../support/hashTree';
import { useTempFolder } from '../../support/tempFolder';

describe('change review: Undo, Undo all and Restore never act outside the workspace nor delete what was there', () => {
  const reviewed = useReviewedChat();
  const outsideFolder = useTempFolder('acp-outside-');
  let outside: string;
  let before: string;

  beforeEach(() => {
    // A folder the agent must not reach: its files have the names the workspace's files have.
    outside = outsideFolder.path;
    fs.writeFileSync(path.join(outside, 'a.txt'), 'outside a\n');
    fs.writeFileSync(path.join(outside, 'new.txt'), 'outside new\n');
    fs.writeFileSync(path.join(outside, 'secret'), 'ssh key\n');
    before = hashTree(outside);
  });

  const file = (name: string): string => path.join(reviewed.chat.dir, name);
  const turns = (): readonly TurnMessage[] => reviewed.chat.controller.viewState().chat?.thread.turns ?? [];
  const rowOf = (turn: TurnMessage | undefined, rel: string) =>
    turn?.changes?.files.find((f) => f.relativePath === rel);

  /** Runs a turn; `listed`: whether it leaves a change list to wait for (a link alone is not listed). */
  async function run(prompt: string, listed = true): Promise<void> {
    const count = turns().length;
    await reviewed.chat.send(prompt);
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
    await reviewed.chat.controller.handleMessage({
      type: 'turn_changes',
      turnId: turn?.id as string,
      action: 'undo',
    });
  }

  it('Undo all after the agent swaps a folder for a link to outside in the same turn: outside unchanged, the card says why', async () => {
    fs.mkdirSync(file('dir'));
    fs.writeFileSync(file('dir/a.txt'), 'workspace a\n');
    await reviewed.chat.ready();
    await run(`own write dir/a.txt agent ; write dir/new.txt x ; link dir ${outside}`);
    const turn = turns()[0];
    assert.ok(rowOf(turn, 'dir/a.txt'), 'the file under the swapped folder is on the card');

    reviewed.port.answer = false; // a question would be declined, as a dismissed dialog is
    await undoAll(turn);
    assert.deepEqual(reviewed.port.confirmations, [], 'nothing of the user is at stake: no question');
    assert.equal(hashTree(outside), before, 'nothing outside the workspace was written, created or deleted');
    assert.equal(fs.readlinkSync(file('dir')), outside, 'the link is left as it is');
    const row = rowOf(turns()[0], 'dir/a.txt');
    assert.equal(row?.decision, 'pending', 'a file left alone is not called undone');
    assert.match(row?.problem ?? '', /Left alone: dir\/ is now a link to a folder outside the workspace/);
    assert.match(
      reviewed.port.informed.at(-1) ?? '',
      /Left alone: .*dir\/a\.txt \(dir\/ is now a link to a folder outside/,
    );
    // The link itself is on the card, and left: what the folder held is not recorded as a link's "before".
    assert.match(
      reviewed.port.informed.at(-1) ?? '',
      /dir \(it is a link to .* now, and what was there is not recorded\)/,
    );
    assert.deepEqual(rowOf(turns()[0], 'dir')?.link, { target: outside, outside: true });
  });

  it('Undo of a created file after a later turn swaps its folder for a link: the outside file of that name survives', async () => {
    fs.mkdirSync(file('dir'));
    await reviewed.chat.ready();
    await run('own write dir/new.txt created');
    await run(`own link dir ${outside}`);
    const first = turns()[0];
    assert.equal(rowOf(first, 'dir/new.txt')?.kind, 'created');

    await reviewed.chat.controller.handleMessage({
      type: 'turn_changes',
      turnId: first?.id as string,
      action: 'undo',
      path: file('dir/new.txt'),
    });
    assert.equal(hashTree(outside), before);
    assert.equal(fs.readFileSync(path.join(outside, 'new.txt'), 'utf8'), 'outside new\n');
    assert.match(rowOf(turns()[0], 'dir/new.txt')?.problem ?? '', /dir\/ is now a link to a folder outside/);
  });

  it('Restore after a later turn swaps a folder for a link: the dialog says what is left alone, outside unchanged', async () => {
    fs.mkdirSync(file('dir'));
    fs.writeFileSync(file('dir/a.txt'), 'v0\n');
    fs.writeFileSync(file('b.txt'), 'b0\n');
    await reviewed.chat.ready();
    await run('own write dir/a.txt v1 ; write b.txt b1');
    await run(`own link dir ${outside}`);

    await reviewed.chat.controller.handleMessage({
      type: 'restore_checkpoint',
      turnId: turns()[0]?.id as string,
    });
    assert.equal(hashTree(outside), before);
    assert.match(
      reviewed.port.confirmations[0]?.detail ?? '',
      /dir\/a\.txt \(left alone: dir\/ is now a link/,
    );
    assert.match(reviewed.port.confirmations[0]?.message ?? '', /1 file will change/);
    assert.equal(fs.readFileSync(file('b.txt'), 'utf8'), 'b0\n', 'what can be restored is');
    assert.match(
      reviewed.port.informed.at(-1) ?? '',
      /Restored 1 file\. Left alone: .*dir\/a\.txt \(dir\/ is now a link/,
    );
  });

  it('a file the agent replaced by a link to outside is restored by replacing the link, not writing through it', async () => {
    fs.writeFileSync(file('a.txt'), 'mine\n');
    await reviewed.chat.ready();
    await run(`own write a.txt agent ; link a.txt ${path.join(outside, 'secret')}`);
    assert.deepEqual(
      { kind: rowOf(turns()[0], 'a.txt')?.kind, link: rowOf(turns()[0], 'a.txt')?.link },
      { kind: 'modified', link: { target: path.join(outside, 'secret'), outside: true } },
      'a file replaced by a link is shown as such, not as deleted',
    );

    await undoAll(turns()[0]);
    assert.equal(hashTree(outside), before);
    assert.equal(fs.lstatSync(file('a.txt')).isSymbolicLink(), false, 'the link is gone');
    assert.equal(fs.readFileSync(file('a.txt'), 'utf8'), 'mine\n', 'the file is back as it was');
  });

  it('a file replaced by a link to outside and written through: the card says so and names every link; Undo all asks nothing', async () => {
    fs.writeFileSync(file('notes.txt'), 'my notes\n');
    fs.mkdirSync(file('docs'));
    await reviewed.chat.ready();
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
      fs.readFileSync(target, 'utf8'),
      'outside a\nwritten through the link\n',
      'the agent wrote outside',
    );
    const afterTurn = hashTree(outside);

    reviewed.port.answer = false; // a question would be declined
    await undoAll(turn);
    assert.deepEqual(reviewed.port.confirmations, [], 'nothing changed after the turn: nothing to ask');
    assert.equal(hashTree(outside), afterTurn, 'Undo wrote nothing outside');
    assert.equal(fs.lstatSync(file('notes.txt')).isSymbolicLink(), false);
    assert.equal(fs.readFileSync(file('notes.txt'), 'utf8'), 'my notes\n', 'back as the plain file it was');
    assert.equal(
      fs.lstatSync(file('shortcut'), { throwIfNoEntry: false }),
      undefined,
      'the links it made are gone',
    );
    assert.equal(fs.lstatSync(file('docs/readme'), { throwIfNoEntry: false }), undefined);
    assert.deepEqual(
      (turns()[0]?.changes?.files ?? []).map((f) => f.decision),
      ['undone', 'undone', 'undone'],
    );
  });

  it('Undo of a link pointed elsewhere after the turn asks first; declined, nothing moves', async () => {
    fs.writeFileSync(file('real.txt'), 'real\n');
    await reviewed.chat.ready();
    await run('own link alias.txt real.txt');
    await run(`own delete alias.txt ; link alias.txt ${path.join(outside, 'secret')}`);

    reviewed.port.answer = false;
    await undoAll(turns()[0]);
    assert.match(
      reviewed.port.confirmations[0]?.detail ?? '',
      /alias\.txt/,
      'the later edit of the link is named',
    );
    assert.equal(
      fs.readlinkSync(file('alias.txt')),
      path.join(outside, 'secret'),
      'declined: the link stays',
    );
    assert.equal(hashTree(outside), before);
    assert.equal(rowOf(turns()[0], 'alias.txt')?.decision, 'pending');
  });

  it('Restore to before a turn that made links removes them, puts the file back, and writes nothing outside', async () => {
    fs.writeFileSync(file('notes.txt'), 'my notes\n');
    await reviewed.chat.ready();
    await run(
      `own link notes.txt ${path.join(outside, 'a.txt')} ; append notes.txt through\n ; link shortcut ${outside}`,
    );
    const afterTurn = hashTree(outside);

    await reviewed.chat.controller.handleMessage({
      type: 'restore_checkpoint',
      turnId: turns()[0]?.id as string,
    });
    assert.match(reviewed.port.confirmations[0]?.message ?? '', /2 files will change/);
    assert.equal(hashTree(outside), afterTurn, 'Restore wrote and deleted nothing outside');
    assert.equal(fs.lstatSync(file('notes.txt')).isSymbolicLink(), false);
    assert.equal(fs.readFileSync(file('notes.txt'), 'utf8'), 'my notes\n');
    assert.equal(fs.lstatSync(file('shortcut'), { throwIfNoEntry: false }), undefined, 'the link is gone');
    assert.equal(fs.readFileSync(path.join(outside, 'secret'), 'utf8'), 'ssh key\n', 'its target is not');
  });

  it('a link inside the workspace is listed with its target, not called outside', async () => {
    fs.writeFileSync(file('real.txt'), 'real\n');
    await reviewed.chat.ready();
    await run('own link alias.txt real.txt');
    assert.deepEqual(rowOf(turns()[0], 'alias.txt')?.link, { target: 'real.txt', outside: false });
    assert.equal(rowOf(turns()[0], 'alias.txt')?.kind, 'created');
  });

  it('Undo of a created file that is now a link to outside deletes the link, not its target', async () => {
    await reviewed.chat.ready();
    await run('own write new.txt x');
    await run(`own link new.txt ${path.join(outside, 'new.txt')}`, false);

    await reviewed.chat.controller.handleMessage({
      type: 'turn_changes',
      turnId: turns()[0]?.id as string,
      action: 'undo',
      path: file('new.txt'),
    });
    assert.equal(hashTree(outside), before);
    assert.equal(fs.existsSync(file('new.txt')), false);
    assert.equal(
      fs.lstatSync(file('new.txt'), { throwIfNoEntry: false }),
      undefined,
      'the link itself is gone',
    );
  });

  it('an agent that un-ignores existing files: Undo all and Restore leave them, and the card says why', async () => {
    fs.writeFileSync(file('.gitignore'), 'build/\n.env\n');
    fs.mkdirSync(file('build'));
    fs.writeFileSync(file('build/out.js'), 'built\n');
    fs.writeFileSync(file('.env'), 'SECRET=1\n');
    await reviewed.chat.ready();
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
    assert.equal(fs.readFileSync(file('.env'), 'utf8'), 'SECRET=1\n', 'an existing file is never deleted');
    assert.equal(fs.readFileSync(file('build/out.js'), 'utf8'), 'built\n');
    assert.equal(fs.existsSync(file('new.txt')), false, 'a file the turn created is deleted');
    assert.equal(fs.readFileSync(file('.gitignore'), 'utf8'), 'build/\n.env\n');
    assert.match(
      rowOf(turns()[0], '.env')?.problem ?? '',
      /ignored .* before the turn, so it may have existed/,
    );
    assert.equal(rowOf(turns()[0], '.env')?.decision, 'pending');
  });

  it('Restore after an agent un-ignored existing files keeps them', async () => {
    fs.writeFileSync(file('.gitignore'), '*.local\n');
    fs.writeFileSync(file('settings.local'), 'mine\n');
    await reviewed.chat.ready();
    await run('own write .gitignore #\\n');
    await reviewed.chat.controller.handleMessage({
      type: 'restore_checkpoint',
      turnId: turns()[0]?.id as string,
    });
    assert.equal(fs.readFileSync(file('settings.local'), 'utf8'), 'mine\n');
    assert.equal(fs.readFileSync(file('.gitignore'), 'utf8'), '*.local\n');
  });

  it('Undo all restores every file it can when one cannot be put back, and the card matches the disk', async () => {
    fs.writeFileSync(file('a.txt'), 'a0\n');
    fs.writeFileSync(file('b.txt'), 'b0\n');
    await reviewed.chat.ready();
    await run('own write a.txt a1 ; write b.txt b1');
    // The user (or another program) puts a folder where b.txt was: it cannot be written back.
    fs.rmSync(file('b.txt'));
    fs.mkdirSync(file('b.txt'));

    await undoAll(turns()[0]);
    assert.equal(fs.readFileSync(file('a.txt'), 'utf8'), 'a0\n');
    assert.equal(fs.lstatSync(file('b.txt')).isDirectory(), true, 'the folder is left');
    const rows = turns()[0]?.changes?.files ?? [];
    assert.deepEqual(
      rows.map((r) => `${r.relativePath} ${r.decision}${r.problem ? ` ${r.problem}` : ''}`).sort(),
      ['a.txt undone', 'b.txt pending Left alone: it is now a folder.'],
    );
  });

  it('refuses to undo an earlier turn while a later turn of the same chat runs, and says why', async () => {
    fs.writeFileSync(file('a.txt'), 'a0\n');
    await reviewed.chat.ready();
    await run('own write a.txt a1');
    const sending = reviewed.chat.send('own write a.txt a2 ; shell sleep 1');
    await until(() => turns()[1]?.status === 'running', 'the later turn to run');
    await reviewed.chat.controller.handleMessage({
      type: 'turn_changes',
      turnId: turns()[0]?.id as string,
      action: 'undo',
    });
    assert.match(
      reviewed.chat.view.of('error').at(-1)?.message ?? '',
      /A later turn of this chat is running: wait for it to end \(or stop it\) to undo/,
    );
    await sending;
    assert.equal(rowOf(turns()[0], 'a.txt')?.decision, 'pending', 'not called undone');
    assert.equal(
      fs.readFileSync(file('a.txt'), 'utf8'),
      'a2',
      "the later turn's content is not undone under it",
    );
  });
});
