import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { TurnMessage } from '../../../src/protocol';
import { ChatHarness, testAgent, until } from '../support/chatHarness';
import type { NodeWorkspaceChanges } from '../support/nodeWorkspaceChanges';
import { gitChangeReview, reviewedChat } from '../support/oneStore';

/** Bytes a text editor would not keep as they are: CRLF, no final newline, a byte that is not UTF-8. */
const AWKWARD = Buffer.concat([Buffer.from('one\r\ntwo\r\n'), Buffer.from([0xff, 0xfe]), Buffer.from('end')]);

describe('change review: every turn leaves a reviewable, undoable record of the files it changed', () => {
  let chat: ChatHarness | undefined;
  let port: NodeWorkspaceChanges;

  function start(options: { git?: string } = {}): ChatHarness {
    chat = reviewedChat((made) => (port = made), options);
    return chat;
  }

  function file(name: string): string {
    return path.join((chat as ChatHarness).dir, name);
  }

  function turns(): readonly TurnMessage[] {
    return chat?.controller.viewState().chat?.thread.turns ?? [];
  }

  function changesOf(turn: TurnMessage | undefined): string[] {
    return (turn?.changes?.files ?? []).map(
      (f) => `${f.kind} ${f.relativePath} +${f.added} -${f.removed} ${f.decision}`,
    );
  }

  /** The user's Keep or Undo on turn `turnId`: for the file at `filePath`, or without one for the whole turn. */
  async function decide(turnId: string, action: 'keep' | 'undo', filePath?: string): Promise<void> {
    await (chat as ChatHarness).controller.handleMessage({
      type: 'turn_changes',
      turnId,
      action,
      path: filePath,
    });
  }

  async function settled(): Promise<void> {
    // Every turn here changes files: each gets a final list once its end has been looked at.
    await until(
      () => turns().every((t) => t.status !== 'running' && t.changes !== undefined && !t.changes.live),
      'the final change lists',
    );
  }

  /** Sends `prompt` in the chat and waits until every turn has its final change list. */
  async function sendSettled(prompt: string): Promise<void> {
    await chat!.send(prompt);
    await settled();
  }

  afterEach(async () => {
    await chat?.dispose();
    chat = undefined;
  });

  it('lists what an agent changed by itself — created, modified, deleted, renamed — with line counts', async () => {
    start();
    writeFileSync(file('keep.txt'), 'a\nb\nc\n');
    writeFileSync(file('gone.txt'), 'bye\n');
    writeFileSync(file('old-name.txt'), 'moving\n');
    await chat!.ready();
    await sendSettled(
      'own write new.txt hello\\nworld\\n ; append keep.txt d\\n ; delete gone.txt ; rename old-name.txt new-name.txt',
    );
    const [turn] = turns();
    assert.ok(turn?.checkpointId, 'the turn has a checkpoint from before it');
    assert.deepEqual(changesOf(turn).sort(), [
      'created new-name.txt +1 -0 pending',
      'created new.txt +2 -0 pending',
      'deleted gone.txt +0 -1 pending',
      'deleted old-name.txt +0 -1 pending',
      'modified keep.txt +1 -0 pending',
    ]);
    assert.equal(turn?.changes?.coverage, 'full');
    assert.ok(turn?.changes?.afterCheckpointId);
  });

  it('undoes one file byte for byte, then all the others, and keeps a kept file', async () => {
    start();
    writeFileSync(file('awkward.txt'), AWKWARD);
    writeFileSync(file('b.txt'), 'b\n');
    writeFileSync(file('c.txt'), 'c\n');
    await chat!.ready();
    await sendSettled('own write awkward.txt clean ; write b.txt B ; delete c.txt ; write d.txt new');
    const turnId = turns()[0]?.id as string;

    await decide(turnId, 'undo', file('awkward.txt'));
    assert.deepEqual(readFileSync(file('awkward.txt')), AWKWARD);
    assert.equal(readFileSync(file('b.txt'), 'utf8'), 'B', 'the other files are not touched');

    await decide(turnId, 'keep', file('b.txt'));
    await decide(turnId, 'undo');
    assert.equal(readFileSync(file('b.txt'), 'utf8'), 'B', 'a kept file stays as the agent left it');
    assert.equal(readFileSync(file('c.txt'), 'utf8'), 'c\n', 'a deleted file comes back');
    assert.equal(existsSync(file('d.txt')), false, 'a created file is deleted again');
    assert.deepEqual(changesOf(turns()[0]).sort(), [
      'created d.txt +1 -0 undone',
      'deleted c.txt +0 -1 undone',
      'modified awkward.txt +1 -3 undone',
      'modified b.txt +1 -1 kept',
    ]);
    assert.equal(port.confirmations.length, 0, 'nothing the user changed was at stake');
  });

  it('asks before undoing a file the user edited after the turn, and leaves it when told no', async () => {
    start();
    writeFileSync(file('a.txt'), 'original\n');
    await chat!.ready();
    await sendSettled('own write a.txt agent');
    writeFileSync(file('a.txt'), 'my own edit\n');
    port.answer = false;
    const turnId = turns()[0]?.id as string;
    await decide(turnId, 'undo', file('a.txt'));
    assert.equal(port.confirmations.length, 1);
    assert.match(port.confirmations[0]?.detail ?? '', /a\.txt/);
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'my own edit\n');
    assert.deepEqual(changesOf(turns()[0]), ['modified a.txt +1 -1 pending']);

    port.answer = true;
    await decide(turnId, 'undo', file('a.txt'));
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'original\n');
  });

  it('restores the workspace to before an earlier message, marks it, and says what changes first', async () => {
    start();
    writeFileSync(file('a.txt'), 'v0\n');
    await chat!.ready();
    await sendSettled('own write a.txt v1');
    await sendSettled('own write a.txt v2 ; write b.txt new ; shell printf x > c.txt');
    const [first, second] = turns();
    assert.deepEqual(changesOf(second).sort(), [
      'created b.txt +1 -0 pending',
      'created c.txt +1 -0 pending',
      'modified a.txt +1 -1 pending',
    ]);

    await chat!.controller.handleMessage({ type: 'restore_checkpoint', turnId: first?.id as string });
    assert.equal(port.confirmations.length, 1);
    assert.match(port.confirmations[0]?.message ?? '', /3 files will change/);
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'v0\n');
    assert.equal(existsSync(file('b.txt')), false);
    assert.equal(existsSync(file('c.txt')), false);
    const [restored, later] = turns();
    assert.ok(restored?.restoredAt, 'the transcript is marked from the restored message on');
    assert.equal(later?.restoredAt, undefined);
    assert.deepEqual(changesOf(later).sort(), [
      'created b.txt +1 -0 undone',
      'created c.txt +1 -0 undone',
      'modified a.txt +1 -1 undone',
    ]);
    await until(
      () =>
        chat!.view
          .events()
          .some((e) => e.type === 'turn_updated' && e.turn.id === first?.id && !!e.turn.restoredAt),
      'the view to be told',
    );
  });

  it('shows files as they change while the turn runs', async () => {
    start();
    await chat!.ready();
    const sending = chat!.send('own write early.txt x ; shell sleep 1');
    await until(
      () =>
        turns()[0]?.changes?.live === true &&
        changesOf(turns()[0]).includes('created early.txt +1 -0 pending'),
      'the live list',
    );
    await sending;
    await settled();
    assert.equal(turns()[0]?.changes?.live, false);
  });

  it('keeps the change card and the decisions across a restart (journaled with the chat)', async () => {
    start();
    writeFileSync(file('a.txt'), 'a\n');
    await chat!.ready();
    await sendSettled('own write a.txt A ; write b.txt B');
    const turnId = turns()[0]?.id as string;
    await decide(turnId, 'keep', file('b.txt'));
    const storage = chat!.storageDir;
    const dir = chat!.dir;
    await chat!.controller.shutdown();
    chat!.controller.dispose();
    chat!.changes?.dispose();

    chat = new ChatHarness({
      agents: [testAgent('a')],
      storageDir: storage,
      changes: (_dir, storageDir) => gitChangeReview(dir, storageDir, (made) => (port = made)),
    });
    await chat.controller.restored;
    assert.deepEqual(changesOf(turns()[0]).sort(), [
      'created b.txt +1 -0 kept',
      'modified a.txt +1 -1 pending',
    ]);
    await decide(turnId, 'undo', path.join(dir, 'a.txt'));
    assert.equal(readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'a\n', 'the checkpoint outlives the window');
  });

  it('without git, still lists and undoes the files the agent named, and says so once', async () => {
    start({ git: path.join(path.sep, 'nonexistent', 'git') });
    writeFileSync(file('a.txt'), 'before\n');
    await chat!.ready();
    await sendSettled('own write a.txt after');
    await sendSettled('own write b.txt new');
    assert.equal(port.informed.length, 1, 'one notice, not one per turn');
    assert.match(port.informed[0] ?? '', /only partly tracked: git was not found/);
    const [first, second] = turns();
    assert.equal(first?.changes?.coverage, 'limited');
    assert.deepEqual(changesOf(first), ['modified a.txt +1 -1 pending']);
    // The agent writes b.txt right after naming it: read before that, it is seen absent (created); read
    // after, its folder has changed since the checkpoint and nothing shows it was absent then — listed as
    // changed with its earlier bytes unknown, which Undo leaves. Never omitted either way.
    const [b] = second?.changes?.files ?? [];
    assert.ok(
      (b?.kind === 'created' && b.beforeUnknown === undefined) ||
        (b?.kind === 'modified' && b.beforeUnknown === true),
      JSON.stringify(b),
    );
    assert.equal(b?.relativePath, 'b.txt');
    await decide(first?.id as string, 'undo');
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'before\n');
  });

  it('without git, a file the agent changed before naming it is listed, its earlier bytes unknown, and Undo leaves it', async () => {
    start({ git: path.join(path.sep, 'nonexistent', 'git') });
    writeFileSync(file('race.txt'), 'before\n');
    await chat!.ready();
    await sendSettled('own late-append race.txt more\\n');
    const [row] = turns()[0]?.changes?.files ?? [];
    assert.deepEqual(
      { path: row?.relativePath, kind: row?.kind, beforeUnknown: row?.beforeUnknown },
      { path: 'race.txt', kind: 'modified', beforeUnknown: true },
      'listed, never omitted, never "created"',
    );
    assert.match(row?.problem ?? '', /could not record it/);
    await decide(turns()[0]?.id as string, 'undo');
    assert.equal(
      readFileSync(file('race.txt'), 'utf8'),
      'before\nmore\n',
      'nothing guessed, nothing deleted',
    );
  });

  it('without git, lists and undoes what the agent wrote through fs/write_text_file, asking nothing', async () => {
    start({ git: path.join(path.sep, 'nonexistent', 'git') });
    writeFileSync(file('a.txt'), 'before\r\n');
    await chat!.ready();
    await sendSettled(`fs write ${file('a.txt')} after`);
    const [turn] = turns();
    assert.deepEqual(changesOf(turn), ['modified a.txt +1 -1 pending']);
    await decide(turn?.id as string, 'undo');
    assert.deepEqual(port.confirmations, [], 'nothing changed after the turn: nothing to ask');
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'before\r\n', 'the bytes before our write, CRLF kept');
  });

  it('a turn whose checkpoint failed says so on the turn, and the prompt still goes', async () => {
    chat = new ChatHarness({
      agents: [testAgent('a')],
      changes: (dir, storage) =>
        gitChangeReview(dir, storage, (made) => (port = made), {
          wrap: (store) => {
            // What a full disk makes git answer (a full file system cannot be made here without root tools).
            const full = Object.assign(new Error('the checkpoint storage is full (ENOSPC)'), {
              code: 'ENOSPC',
            });
            return Object.assign(Object.create(store) as typeof store, {
              create: () => Promise.reject(full),
            });
          },
        }),
    });
    await chat.ready();
    await chat.send('own write a.txt x');
    await until(() => turns()[0]?.status === 'completed', 'the turn');
    const [turn] = turns();
    assert.equal(turn?.checkpointId, undefined);
    assert.equal(
      turn?.checkpointProblem,
      'No checkpoint for this turn: the checkpoint storage is full (ENOSPC)',
    );
  });
  it('Stop while the checkpoint before a prompt is taken cancels the turn: the prompt never reaches the agent', async () => {
    let release: (() => void) | undefined;
    let armed = false;
    let calls = 0;
    let held = 0;
    chat = new ChatHarness({
      agents: [testAgent('a')],
      changes: (dir, storage) =>
        gitChangeReview(dir, storage, (made) => (port = made), {
          // A checkpoint that takes as long as the test wants (a slow disk, a huge workspace).
          wrap: (store) =>
            Object.assign(Object.create(store) as typeof store, {
              create: () => {
                calls++;
                if (!armed || release !== undefined) {
                  return store.create();
                }
                held++;
                return new Promise<void>((resolve) => (release = resolve)).then(() => store.create());
              },
            }),
        }),
    });
    await chat.ready();
    await until(() => calls === 1, 'the warm-up checkpoint the open chat takes');
    armed = true;
    const sending = chat.send('own write first.txt x');
    await until(() => held === 1, 'the checkpoint to be under way');
    await chat.controller.handleMessage({ type: 'cancel' });
    await sending;
    assert.equal(turns()[0]?.status, 'cancelled', 'the message is kept as a stopped turn');
    release?.();
    // The agent answers prompts in order: had the first reached it, its file would exist by now.
    await chat.send('own write second.txt y');
    await until(() => turns()[1]?.status === 'completed', 'the next turn');
    assert.equal(readFileSync(file('second.txt'), 'utf8'), 'y');
    assert.equal(existsSync(file('first.txt')), false, 'the stopped prompt was never sent');
  });
});
