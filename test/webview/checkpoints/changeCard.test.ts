import assert from 'node:assert/strict';
import {
  ended,
  events,
  fileChange,
  message,
  snapshot,
  started,
  turn,
  turnChanges,
  turnUpdated,
} from '../support/builders';
import { changeCard as card, changeRow as row, finishedTurn } from '../support/changeCard';
import { useChatPages } from '../support/suite';

describe('webview: the change card lists what a turn changed', () => {
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
});

describe('webview: the change card in a narrow sidebar', () => {
  const chat = useChatPages();

  // VS Code's sidebar is 300 px wide by default, and people narrow it further: the file name is what
  // tells the files apart, so its folder gives way first and the name is cut only once no folder shows.
  for (const width of [300, 240]) {
    it(`cuts the folder before the file name at ${width} px`, async () => {
      const page = await chat.open({ width, height: 600 });
      const files = [
        fileChange('src/obsolete.ts', { added: 3, removed: 1 }),
        fileChange('test/unit/some/deep/folder/obsolete.ts', { kind: 'created', added: 30 }),
        fileChange('lib/a/b/c/obsoleteCheckpointCleanerForLargeWorkspaces.ts'),
      ];
      await page.host(snapshot({ turns: [finishedTurn({ changes: turnChanges(files) })] }));
      const widths = await card(page)
        .locator('.change-row')
        .evaluateAll((rows) =>
          rows.map((row) => {
            const name = row.querySelector<HTMLElement>('.change-name');
            const folder = row.querySelector<HTMLElement>('.change-folder');
            return {
              name: name?.textContent,
              nameCut: (name?.scrollWidth ?? 0) > (name?.clientWidth ?? 0),
              folderShown: folder?.getBoundingClientRect().width ?? 0,
            };
          }),
        );
      for (const row of widths) {
        if (row.nameCut) {
          assert.ok(row.folderShown < 1, `${row.name} is cut while ${row.folderShown} px of its folder show`);
        }
      }
      if (width === 300) {
        assert.equal(widths[0]?.nameCut, false, 'a short name fits whole at the default width');
      }
    });
  }
});
