import assert from 'node:assert/strict';
import { fileChange, message, snapshot, turnChanges } from '../support/builders';
import { changeCard as card, changeRow as row, finishedTurn } from '../support/changeCard';
import { useChatPages } from '../support/suite';

describe('webview: what a change card or a turn without a checkpoint says is not tracked or left alone', () => {
  const chat = useChatPages();

  it('says when only some files can be tracked', async () => {
    const page = await chat.openShowing(
      snapshot({
        turns: [
          finishedTurn({ id: 't1', changes: turnChanges([fileChange('a.ts')], { coverage: 'limited' }) }),
          finishedTurn({ id: 't2', changes: turnChanges([fileChange('a.ts')]) }),
        ],
      }),
    );
    assert.equal(
      await card(page, 't1').locator('.change-hint').innerText(),
      'Only files the agent named or wrote through the editor are tracked — git is not available.',
    );
    assert.equal(await card(page, 't2').locator('.change-hint').isVisible(), false);
  });

  it('says which nested repositories and folders with unreadable rule files are not tracked (screenshot)', async () => {
    const page = await chat.openShowing(
      snapshot({
        turns: [
          finishedTurn({ id: 't1', changes: turnChanges([fileChange('a.ts')], { untracked: ['sub/'] }) }),
          finishedTurn({
            id: 't2',
            changes: turnChanges([fileChange('a.ts')], { untracked: ['sub/', 'lib/x/'] }),
          }),
          finishedTurn({ id: 't3', changes: turnChanges([fileChange('a.ts')]) }),
        ],
      }),
    );
    assert.equal(
      await card(page, 't1').locator('.change-untracked').innerText(),
      'Changes inside sub/ are not tracked: it is a nested repository, or its .gitignore or .gitattributes is not a regular file.',
    );
    assert.equal(
      await card(page, 't2').locator('.change-untracked').innerText(),
      'Changes inside sub/, lib/x/ are not tracked: nested repositories, or folders whose .gitignore or .gitattributes is not a regular file.',
    );
    assert.equal(await card(page, 't3').locator('.change-untracked').isVisible(), false);
    await page.screenshot('change-card-untracked');
    page.assertClean();
  });

  it('says under a file why Undo left it, and offers no Undo for a file that may have existed (screenshot)', async () => {
    const page = await chat.openShowing(
      snapshot({
        entries: [message('user', 'u1', 'Tidy up')],
        turns: [
          finishedTurn({
            changes: turnChanges([
              fileChange('dir/a.txt', {
                kind: 'deleted',
                problem: 'Left alone: dir/ is now a link to a folder outside the workspace.',
              }),
              fileChange('.env', { kind: 'created', beforeUnknown: true }),
              fileChange('src/app.ts', { decision: 'undone' }),
            ]),
          }),
        ],
      }),
      { width: 480, height: 420 },
    );
    const linked = row(page, '/w/dir/a.txt');
    assert.equal(
      await linked.locator('.change-note').innerText(),
      'Left alone: dir/ is now a link to a folder outside the workspace.',
    );
    const env = row(page, '/w/.env');
    assert.equal(
      await env.locator('.change-note').innerText(),
      'Ignored before the turn, so it may have existed then: Undo leaves it.',
    );
    assert.deepEqual(
      await env
        .locator('.change-buttons button')
        .evaluateAll((list) => list.map((b) => b.getAttribute('aria-label'))),
      ['Open the diff of .env', 'Keep the change to .env'],
    );
    assert.equal(await row(page, '/w/src/app.ts').locator('.change-note').count(), 0);
    const [noteBox, nameBox] = await Promise.all([
      linked.locator('.change-note').boundingBox(),
      linked.locator('.change-name').boundingBox(),
    ]);
    assert.ok(noteBox && nameBox && noteBox.y >= nameBox.y + nameBox.height, 'the note is on its own line');
    await page.screenshot('change-card-left-alone');
    page.assertClean();
  });

  it('lists a link the agent made as a link with its target, and says plainly when it leads outside (screenshot)', async () => {
    const page = await chat.openShowing(
      snapshot({
        entries: [message('user', 'u1', 'Share the notes')],
        turns: [
          finishedTurn({
            changes: turnChanges([
              fileChange('notes.txt', { link: { target: '/home/me/.ssh/config', outside: true } }),
              fileChange('alias.txt', { kind: 'created', link: { target: 'real.txt', outside: false } }),
              fileChange('src/app.ts'),
            ]),
          }),
        ],
      }),
      { width: 480, height: 420 },
    );
    const outside = row(page, '/w/notes.txt');
    assert.equal(await outside.locator('.change-link-target').innerText(), '→ /home/me/.ssh/config');
    assert.equal(await outside.locator('.change-kind').getAttribute('aria-label'), 'Now a link');
    assert.equal(
      await outside.locator('.change-outside').innerText(),
      'It links to /home/me/.ssh/config, outside the workspace: the agent may have changed files outside the workspace through it.',
    );
    const inside = row(page, '/w/alias.txt');
    assert.equal(await inside.locator('.change-link-target').innerText(), '→ real.txt');
    assert.equal(await inside.locator('.change-kind').getAttribute('aria-label'), 'Link created');
    assert.equal(await inside.locator('.change-outside').count(), 0, 'a link inside is not called outside');
    assert.equal(await row(page, '/w/src/app.ts').locator('.change-link-target').count(), 0);
    await page.screenshot('change-card-links');
    page.assertClean();
  });

  it('says on a turn without a checkpoint why there is none, in place of Restore checkpoint (screenshot)', async () => {
    const page = await chat.openShowing(
      snapshot({
        entries: [message('user', 'u1', 'Refactor the parser')],
        turns: [
          finishedTurn({
            checkpointId: undefined,
            checkpointProblem: 'No checkpoint for this turn: the checkpoint storage is full (ENOSPC)',
            changes: undefined,
          }),
        ],
      }),
      { width: 480, height: 300 },
    );
    const note = page.page.locator('.checkpoint-problem[data-turn-id="t1"]');
    assert.equal(
      await note.innerText(),
      'No checkpoint for this turn: the checkpoint storage is full (ENOSPC)',
    );
    assert.equal(await note.getAttribute('role'), 'note');
    assert.equal(await page.page.locator('.restore-checkpoint').count(), 0, 'nothing to restore to');
    await page.screenshot('checkpoint-problem');
    page.assertClean();
  });
});

describe('webview: a turn whose checkpoint was taken late, or is still being taken', () => {
  const chat = useChatPages();
  const LATE =
    'Checkpoint taken 14 s into this turn (a large workspace or a busy machine): changes made before then are not listed, and Undo and Restore go back to how files were then.';

  it('says so under Restore checkpoint and on the card; while it is taken, says that in its place (screenshot)', async () => {
    const page = await chat.openShowing(
      snapshot({
        entries: [
          message('user', 'u1', 'Rename the config loader', { turnId: 't1' }),
          message('user', 'u2', 'And its tests', { turnId: 't2' }),
        ],
        turns: [
          finishedTurn({
            checkpointProblem: LATE,
            changes: turnChanges([fileChange('src/config.ts', { added: 4, removed: 4 })]),
          }),
          finishedTurn({
            id: 't2',
            status: 'running',
            endedAt: undefined,
            checkpointId: undefined,
            checkpointProblem:
              "The checkpoint before this turn was still being taken after 10 s: the turn's changes are listed once it is done.",
            changes: undefined,
          }),
        ],
      }),
      { width: 480, height: 640 },
    );
    await page.page.locator('[data-entry-id="u1"]').hover();
    assert.equal(
      await page.page.locator('section[data-turn-id="t1"] .restore-checkpoint').count(),
      1,
      'Restore is still offered',
    );
    const note = page.page.locator('.checkpoint-late[data-turn-id="t1"]');
    assert.equal(await note.innerText(), LATE);
    assert.equal(await note.getAttribute('role'), 'note');
    assert.equal(await card(page, 't1').locator('.change-late').innerText(), LATE);
    const pending = page.page.locator('.checkpoint-problem[data-turn-id="t2"]');
    assert.match(await pending.innerText(), /still being taken after 10 s/);
    await page.screenshot('checkpoint-late');
    page.assertClean();
  });
});
