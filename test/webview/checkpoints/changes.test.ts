import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { TurnMessage } from '../../../src/protocol';
import type { ChatPage } from '../support/chatPage';
import {
  ended,
  events,
  fileChange,
  message,
  snapshot,
  started,
  toolCall,
  turn,
  turnChanges,
  turnUpdated,
} from '../support/builders';
import { useChatPages } from '../support/suite';

const T0 = 1_700_000_000_000;
const OUT = resolve(__dirname, '../../../test-results');

/** A finished turn with a user message and a mix of created, modified, deleted and decided files. */
function finishedTurn(partial: Partial<TurnMessage> = {}): TurnMessage {
  return turn('t1', {
    status: 'completed',
    stopReason: 'end_turn',
    endedAt: T0 + 5000,
    checkpointId: 'cp-1',
    changes: turnChanges([
      fileChange('src/new.ts', { kind: 'created', added: 10, removed: 0 }),
      fileChange('src/lib/config.ts', { added: 3, removed: 2 }),
      fileChange('old.txt', { kind: 'deleted', added: 0, removed: 5, decision: 'kept' }),
      fileChange('assets/logo.png', { binary: true, added: 0, removed: 0, decision: 'undone' }),
    ]),
    ...partial,
  });
}

const card = (page: ChatPage, turnId = 't1') => page.page.locator(`.turn-changes[data-turn-id="${turnId}"]`);
const row = (page: ChatPage, path: string) => page.page.locator(`.change-row[data-path="${path}"]`);

describe('webview: the change card, Restore checkpoint and the restored mark', () => {
  const chat = useChatPages();

  it('lists the files a turn changed with kinds, counts, badges and paths', async () => {
    const page = await chat.open();
    await page.host(snapshot({ entries: [message('user', 'u1', 'Refactor')], turns: [finishedTurn()] }));
    const changes = card(page);
    assert.equal(await changes.isVisible(), true);
    assert.equal(await changes.locator('.change-title').textContent(), '4 files changed');
    assert.equal(await changes.getAttribute('aria-label'), '4 files changed');
    assert.deepEqual(await changes.locator('.change-stats span').allTextContents(), ['+13', '−7']);
    assert.equal(
      await changes.locator('.change-stats').getAttribute('aria-label'),
      '13 lines added, 7 removed',
    );
    assert.equal(await changes.locator('.change-live').isVisible(), false, 'not live');
    assert.equal(await changes.locator('.change-hint').isVisible(), false, 'full coverage: no hint');
    assert.equal(await changes.locator('.disclosure-header').getAttribute('aria-expanded'), 'true');

    const created = row(page, '/w/src/new.ts');
    assert.equal(
      await created.locator('.change-kind.codicon-diff-added').getAttribute('aria-label'),
      'Created',
    );
    assert.equal(await created.locator('.change-name').textContent(), 'new.ts');
    assert.equal(await created.locator('.change-folder').textContent(), 'src');
    assert.equal(await created.locator('.change-path').getAttribute('title'), '/w/src/new.ts');
    assert.equal(
      await created.locator('.change-name').evaluate((e) => getComputedStyle(e).fontWeight),
      '600',
    );
    assert.deepEqual(await created.locator('.diff-stats span').allTextContents(), ['+10', '−0']);

    const modified = row(page, '/w/src/lib/config.ts');
    assert.equal(await modified.locator('.codicon-diff-modified').count(), 1);
    assert.equal(await modified.locator('.change-folder').textContent(), 'src/lib');
    assert.deepEqual(await modified.locator('.diff-stats span').allTextContents(), ['+3', '−2']);

    const deleted = row(page, '/w/old.txt');
    assert.equal(await deleted.locator('.codicon-diff-removed').count(), 1);
    assert.equal(await deleted.locator('.change-folder').count(), 0, 'a file at the root has no folder');
    assert.equal(await deleted.locator('.change-badge').textContent(), 'Kept');

    const binary = row(page, '/w/assets/logo.png');
    assert.equal(await binary.locator('.change-binary').textContent(), 'binary');
    assert.equal(await binary.locator('.diff-stats').count(), 0);
    assert.equal(await binary.locator('.change-badge').textContent(), 'Undone');

    // Keep and Undo only for the pending files; Open diff on every row.
    for (const [path, decidable] of [
      ['/w/src/new.ts', true],
      ['/w/src/lib/config.ts', true],
      ['/w/old.txt', false],
      ['/w/assets/logo.png', false],
    ] as const) {
      const buttons = await row(page, path)
        .locator('.change-buttons button')
        .evaluateAll((list) => list.map((b) => b.getAttribute('aria-label')));
      const relative = path.slice('/w/'.length);
      assert.deepEqual(
        buttons,
        decidable
          ? [
              `Open the diff of ${relative}`,
              `Keep the change to ${relative}`,
              `Undo the change to ${relative}`,
            ]
          : [`Open the diff of ${relative}`],
        path,
      );
    }
    assert.deepEqual(await changes.locator('.change-actions :is(button, vscode-button)').allTextContents(), [
      'Review all',
      'Keep all',
      'Undo all',
    ]);
    page.assertClean();
  });

  it('shows the card on cancelled, failed and interrupted turns too, and none without files', async () => {
    const page = await chat.open();
    const files = turnChanges([fileChange('a.ts')]);
    await page.host(
      snapshot({
        turns: [
          turn('t1', { status: 'cancelled', stopReason: 'cancelled', changes: files }),
          turn('t2', { status: 'failed', error: { kind: 'internal', message: 'boom' }, changes: files }),
          turn('t3', { status: 'interrupted', changes: files }),
          turn('t4', { status: 'completed', changes: turnChanges([]) }),
          turn('t5', { status: 'completed' }),
        ],
      }),
    );
    for (const id of ['t1', 't2', 't3']) {
      assert.equal(await card(page, id).locator('.change-title').textContent(), '1 file changed', id);
      assert.equal(await card(page, id).isVisible(), true, id);
    }
    assert.equal(await card(page, 't4').isVisible(), false, 'no files: no card');
    assert.equal(await card(page, 't5').isVisible(), false, 'no changes: no card');
  });

  it('grows live from turn_updated while the turn runs, then offers the decisions', async () => {
    const page = await chat.open();
    const running = turn('t1', { checkpointId: 'cp-1' });
    await page.host(snapshot({ entries: [message('user', 'u1', 'Go')] }));
    await page.host(events(started(running)));
    assert.equal(await card(page).isVisible(), false, 'nothing changed yet');

    await page.host(
      events(turnUpdated({ ...running, changes: turnChanges([fileChange('a.ts')], { live: true }) })),
    );
    assert.equal(await card(page).isVisible(), true);
    assert.equal(await card(page).locator('.change-live').innerText(), 'Changing…');
    assert.equal(await card(page).locator('.change-live .codicon-loading.codicon-modifier-spin').count(), 1);
    assert.deepEqual(
      await card(page).locator('.change-actions :is(button, vscode-button)').allTextContents(),
      ['Review all'],
    );
    assert.equal(await row(page, '/w/a.ts').locator('.change-decide').count(), 0, 'no Keep/Undo while live');

    await page.host(
      events(
        turnUpdated({
          ...running,
          changes: turnChanges(
            [fileChange('a.ts', { added: 4 }), fileChange('b/c.ts', { kind: 'created' })],
            {
              live: true,
            },
          ),
        }),
      ),
    );
    assert.equal(await card(page).locator('.change-title').textContent(), '2 files changed');
    assert.deepEqual(
      await card(page)
        .locator('.change-row')
        .evaluateAll((rows) => rows.map((r) => r.dataset.path)),
      ['/w/a.ts', '/w/b/c.ts'],
    );

    const done = {
      ...running,
      status: 'completed' as const,
      stopReason: 'end_turn' as const,
      changes: turnChanges([fileChange('a.ts', { added: 4 }), fileChange('b/c.ts', { kind: 'created' })]),
    };
    await page.host(events(ended(done)));
    assert.equal(await card(page).locator('.change-live').isVisible(), false);
    assert.deepEqual(
      await card(page).locator('.change-actions :is(button, vscode-button)').allTextContents(),
      ['Review all', 'Keep all', 'Undo all'],
    );
    assert.equal(await row(page, '/w/a.ts').locator('.change-decide').count(), 2);
    assert.deepEqual(await card(page).locator('.change-stats span').allTextContents(), ['+5', '−0']);
  });

  it('posts exactly the right turn_changes messages, per file and for all', async () => {
    const page = await chat.open();
    await page.host(snapshot({ entries: [message('user', 'u1', 'Refactor')], turns: [finishedTurn()] }));
    await page.clearPosted();
    await row(page, '/w/src/new.ts').locator('.change-path').click();
    await row(page, '/w/old.txt').getByRole('button', { name: 'Open the diff of old.txt' }).click();
    await row(page, '/w/src/new.ts').getByRole('button', { name: 'Keep the change to src/new.ts' }).click();
    await row(page, '/w/src/lib/config.ts')
      .getByRole('button', { name: 'Undo the change to src/lib/config.ts' })
      .click();
    await card(page).locator('.change-review-all').click();
    assert.deepEqual(await page.posted(), [
      { type: 'turn_changes', turnId: 't1', action: 'diff', path: '/w/src/new.ts' },
      { type: 'turn_changes', turnId: 't1', action: 'diff', path: '/w/old.txt' },
      { type: 'turn_changes', turnId: 't1', action: 'keep', path: '/w/src/new.ts' },
      { type: 'turn_changes', turnId: 't1', action: 'undo', path: '/w/src/lib/config.ts' },
      { type: 'turn_changes', turnId: 't1', action: 'diff' },
    ]);

    // A second click before the host answers asks nothing more.
    const keep = row(page, '/w/src/new.ts').getByRole('button', { name: 'Keep the change to src/new.ts' });
    assert.equal(await keep.isDisabled(), true);
    await keep.click({ force: true });
    assert.equal((await page.postedOf('turn_changes')).length, 5);

    // The host could not do it: the buttons come back.
    await page.host({ type: 'error', message: 'Could not keep src/new.ts' });
    assert.equal(await keep.isDisabled(), false);

    await page.clearPosted();
    await card(page).locator('vscode-button', { hasText: 'Keep all' }).click();
    await page.host({ type: 'error', message: 'Could not keep' });
    await card(page).locator('vscode-button', { hasText: 'Undo all' }).click();
    assert.deepEqual(await page.posted(), [
      { type: 'turn_changes', turnId: 't1', action: 'keep' },
      { type: 'turn_changes', turnId: 't1', action: 'undo' },
    ]);
    assert.equal(
      await card(page).locator('vscode-button', { hasText: 'Keep all' }).getAttribute('disabled'),
      '',
      'locked until the host answers',
    );
  });

  it('drops Keep and Undo once the host reports a decision, and Keep all / Undo all once none is pending', async () => {
    const page = await chat.open();
    const before = finishedTurn();
    await page.host(snapshot({ entries: [message('user', 'u1', 'Refactor')], turns: [before] }));
    const files = before.changes?.files ?? [];
    const decide = (decisions: Record<string, 'kept' | 'undone'>): TurnMessage => ({
      ...before,
      changes: turnChanges(
        files.map((file) => ({ ...file, decision: decisions[file.path] ?? file.decision })),
      ),
    });

    await page.host(events(turnUpdated(decide({ '/w/src/new.ts': 'kept' }))));
    assert.equal(await row(page, '/w/src/new.ts').locator('.change-decide').count(), 0);
    assert.equal(await row(page, '/w/src/new.ts').locator('.change-badge').textContent(), 'Kept');
    assert.equal(await row(page, '/w/src/new.ts').getAttribute('data-decision'), 'kept');
    assert.equal(
      await row(page, '/w/src/lib/config.ts').locator('.change-decide').count(),
      2,
      'still pending',
    );
    assert.deepEqual(
      await card(page).locator('.change-actions :is(button, vscode-button)').allTextContents(),
      ['Review all', 'Keep all', 'Undo all'],
    );

    await page.host(
      events(turnUpdated(decide({ '/w/src/new.ts': 'kept', '/w/src/lib/config.ts': 'undone' }))),
    );
    assert.equal(await row(page, '/w/src/lib/config.ts').locator('.change-badge').textContent(), 'Undone');
    assert.equal(await card(page).locator('.change-decide').count(), 0);
    assert.deepEqual(
      await card(page).locator('.change-actions :is(button, vscode-button)').allTextContents(),
      ['Review all'],
    );
  });

  it('says when only some files can be tracked', async () => {
    const page = await chat.open();
    await page.host(
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
    const page = await chat.open();
    await page.host(
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
    await page.page.evaluate(() => document.fonts.ready);
    await mkdir(OUT, { recursive: true });
    await page.page.screenshot({ path: `${OUT}/change-card-untracked.png` });
    page.assertClean();
  });

  it('says under a file why Undo left it, and offers no Undo for a file that may have existed (screenshot)', async () => {
    const page = await chat.open({ width: 480, height: 420 });
    await page.host(
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
    await page.page.evaluate(() => document.fonts.ready);
    await mkdir(OUT, { recursive: true });
    await page.page.screenshot({ path: `${OUT}/change-card-left-alone.png` });
    page.assertClean();
  });

  it('says on a turn without a checkpoint why there is none, in place of Restore checkpoint (screenshot)', async () => {
    const page = await chat.open({ width: 480, height: 300 });
    await page.host(
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
    );
    const note = page.page.locator('.checkpoint-problem[data-turn-id="t1"]');
    assert.equal(
      await note.innerText(),
      'No checkpoint for this turn: the checkpoint storage is full (ENOSPC)',
    );
    assert.equal(await note.getAttribute('role'), 'note');
    assert.equal(await page.page.locator('.restore-checkpoint').count(), 0, 'nothing to restore to');
    await page.page.evaluate(() => document.fonts.ready);
    await mkdir(OUT, { recursive: true });
    await page.page.screenshot({ path: `${OUT}/checkpoint-problem.png` });
    page.assertClean();
  });

  it('folds a long list behind its header', async () => {
    const page = await chat.open();
    const many = Array.from({ length: 12 }, (_, i) => fileChange(`src/file${i}.ts`));
    await page.host(snapshot({ turns: [finishedTurn({ changes: turnChanges(many) })] }));
    const header = card(page).locator('.disclosure-header');
    assert.equal(await header.getAttribute('aria-expanded'), 'false');
    assert.equal(await card(page).locator('.change-files').isVisible(), false);
    assert.equal(await card(page).locator('.change-title').textContent(), '12 files changed');
    assert.equal(await card(page).locator('vscode-button', { hasText: 'Keep all' }).isVisible(), true);
    await header.click();
    assert.equal(await card(page).locator('.change-row').count(), 12);
    assert.equal(await card(page).locator('.change-files').isVisible(), true);
  });

  it('offers Restore checkpoint on finished turns with a checkpoint, disabled while a turn runs', async () => {
    const page = await chat.open();
    const first = finishedTurn({ id: 't1', checkpointId: 'cp-1' });
    const noCheckpoint = finishedTurn({ id: 't2', checkpointId: undefined, startedAt: T0 + 10_000 });
    const third = turn('t3', { checkpointId: 'cp-3', startedAt: T0 + 20_000 });
    await page.host(
      snapshot({
        entries: [
          message('user', 'u1', 'one'),
          message('agent', 'a1', 'done one'),
          message('user', 'u2', 'two', { turnId: 't2' }),
          message('user', 'u3', 'three', { turnId: 't3' }),
        ],
        turns: [first, noCheckpoint, third],
      }),
    );
    const restore = (turnId: string) =>
      page.page.locator(`section[data-turn-id="${turnId}"] .restore-checkpoint`);
    assert.equal(await restore('t1').count(), 1);
    assert.equal(await restore('t2').count(), 0, 'no checkpoint: no restore');
    assert.equal(await restore('t3').count(), 0, 'the running turn has none');
    assert.equal(await restore('t1').isDisabled(), true, 'disabled while t3 runs');
    // Right under the message that started the turn.
    assert.equal(
      await page.page
        .locator('[data-entry-id="u1"]')
        .evaluate((entry) => entry.nextElementSibling?.classList.contains('checkpoint-row')),
      true,
    );

    await page.host(events(ended({ ...third, status: 'completed', stopReason: 'end_turn' })));
    assert.equal(await restore('t1').isDisabled(), false);
    assert.equal(await restore('t3').count(), 1);
    assert.equal(await restore('t1').innerText(), 'Restore checkpoint');
    assert.equal(
      await restore('t1').getAttribute('title'),
      'Put the workspace back to how it was before this message',
    );
    assert.equal(await restore('t1').locator('.codicon-discard').count(), 1);
    await page.clearPosted();
    await restore('t1').click();
    await restore('t3').click();
    assert.deepEqual(await page.posted(), [
      { type: 'restore_checkpoint', turnId: 't1' },
      { type: 'restore_checkpoint', turnId: 't3' },
    ]);

    await page.host(events(started(turn('t4', { startedAt: T0 + 30_000 }))));
    assert.equal(await restore('t1').isDisabled(), true, 'a new turn runs');
    assert.equal(await restore('t3').isDisabled(), true);
  });

  it('marks the restored message with a divider and everything from there that the restore undid', async () => {
    const page = await chat.open();
    const restoredAt = T0 + 25_000;
    await page.host(
      snapshot({
        entries: [
          message('user', 'u1', 'one', { turnId: 't1' }),
          message('user', 'u2', 'two', { turnId: 't2' }),
          message('agent', 'a2', 'did two', { turnId: 't2' }),
          message('user', 'u3', 'three', { turnId: 't3' }),
          message('user', 'u4', 'after the restore', { turnId: 't4' }),
        ],
        turns: [
          finishedTurn({ id: 't1', startedAt: T0 }),
          finishedTurn({ id: 't2', startedAt: T0 + 10_000, checkpointId: 'cp-2' }),
          finishedTurn({ id: 't3', startedAt: T0 + 20_000, checkpointId: 'cp-3' }),
          finishedTurn({ id: 't4', startedAt: T0 + 30_000, checkpointId: 'cp-4' }),
        ],
      }),
    );
    assert.equal(await page.page.locator('.restored-mark').count(), 0);
    assert.equal(await page.page.locator('.turn.restored-away').count(), 0);

    await page.host(
      events(
        turnUpdated(finishedTurn({ id: 't2', startedAt: T0 + 10_000, checkpointId: 'cp-2', restoredAt })),
      ),
    );
    const marks = page.page.locator('.restored-mark');
    assert.equal(await marks.count(), 1);
    assert.match((await marks.textContent()) ?? '', /^Workspace restored to before this message · \S.*$/);
    assert.equal(await marks.locator('time').getAttribute('datetime'), new Date(restoredAt).toISOString());
    assert.equal(
      await marks.evaluate((mark) => (mark.nextElementSibling as HTMLElement | null)?.dataset.turnId),
      't2',
      'the divider sits right above the restored message',
    );
    const away = await page.page
      .locator('.turn.restored-away')
      .evaluateAll((turns) => turns.map((t) => (t as HTMLElement).dataset.turnId));
    assert.deepEqual(away, ['t2', 't3'], 't4 came after the restore; t1 before the restored message');
    // Marked, still readable and selectable.
    const style = await page.page.locator('[data-entry-id="a2"]').evaluate((entry) => ({
      select: getComputedStyle(entry).userSelect,
      visible: entry.checkVisibility(),
    }));
    assert.deepEqual(style, { select: 'auto', visible: true });
    assert.equal(
      await page.page
        .locator('section[data-turn-id="t2"]')
        .evaluate((section) => getComputedStyle(section).borderLeftStyle),
      'solid',
    );

    // Restoring further back moves the mark up and marks more.
    await page.host(events(turnUpdated(finishedTurn({ id: 't1', startedAt: T0, restoredAt: T0 + 40_000 }))));
    assert.equal(await marks.count(), 2);
    assert.deepEqual(
      await page.page
        .locator('.turn.restored-away')
        .evaluateAll((turns) => turns.map((t) => (t as HTMLElement).dataset.turnId)),
      ['t1', 't2', 't3', 't4'],
    );
    page.assertClean();
  });

  it('opens a tool call diff at its first changed line', async () => {
    const page = await chat.open();
    await page.host(
      snapshot({
        entries: [
          toolCall('e1', {
            toolKind: 'edit',
            status: 'in_progress',
            content: [
              {
                type: 'diff',
                path: '/w/a.ts',
                oldText: 'a\nb\nc\nd\ne\nf\n',
                newText: 'a\nb\nc\nd\nE\nf\n',
              },
              { type: 'diff', path: '/w/gone.ts', oldText: 'x\ny\nz\n', newText: 'x\nz\n' },
              { type: 'diff', path: '/w/new.ts', oldText: null, newText: 'hello\n' },
            ],
            locations: [{ path: '/w/a.ts', line: 5 }],
          }),
        ],
        turns: [turn('t1')],
      }),
    );
    await page.clearPosted();
    const paths = page.page.locator('[data-entry-id="e1"] .diff-path');
    for (let i = 0; i < 3; i++) {
      await paths.nth(i).click();
    }
    await page.page.locator('[data-entry-id="e1"] .location').click();
    assert.deepEqual(await page.posted(), [
      { type: 'open_file', path: '/w/a.ts', line: 5 },
      { type: 'open_file', path: '/w/gone.ts', line: 2 },
      { type: 'open_file', path: '/w/new.ts', line: 1 },
      { type: 'open_file', path: '/w/a.ts', line: 5 },
    ]);
    assert.equal(await paths.first().getAttribute('title'), 'Open /w/a.ts at line 5');
  });

  it('shows tool call paths relative to the workspace folder and opens the full path', async () => {
    const page = await chat.open();
    const entry = toolCall('e1', {
      toolKind: 'edit',
      status: 'in_progress',
      content: [{ type: 'diff', path: '/work/app/src/a.ts', oldText: 'a\n', newText: 'b\n' }],
      locations: [{ path: '/work/app/src/a.ts', line: 7 }, { path: '/etc/hosts' }],
    });
    await page.host(snapshot({ entries: [entry], turns: [turn('t1')] }, { workspaceFolders: ['/work/app'] }));
    const card = page.page.locator('[data-entry-id="e1"]');
    assert.deepEqual(await card.locator('.location').allInnerTexts(), ['src/a.ts:7', '/etc/hosts']);
    assert.equal(await card.locator('.location').first().getAttribute('title'), 'Open /work/app/src/a.ts:7');
    assert.equal(await card.locator('.diff-path-text').textContent(), 'src/a.ts');
    await page.clearPosted();
    await card.locator('.location').first().click();
    await card.locator('.diff-path').click();
    assert.deepEqual(await page.posted(), [
      { type: 'open_file', path: '/work/app/src/a.ts', line: 7 },
      { type: 'open_file', path: '/work/app/src/a.ts', line: 1 },
    ]);

    // Without the folders (a host that does not send them) the paths show as they came.
    await page.host(snapshot({ entries: [entry], turns: [turn('t1')] }));
    assert.deepEqual(await card.locator('.location').allInnerTexts(), ['/work/app/src/a.ts:7', '/etc/hosts']);
  });
});
