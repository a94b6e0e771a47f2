import assert from 'node:assert/strict';
import type { TurnMessage } from '../../../src/protocol';
import { events, message, snapshot, turnChanges, turnUpdated } from '../support/builders';
import { changeCard as card, changeRow as row, finishedTurn } from '../support/changeCard';
import { useChatPages } from '../support/suite';

describe('webview: Keep and Undo on the change card', () => {
  const chat = useChatPages();

  it('posts exactly the right turn_changes messages, per file and for all', async () => {
    const page = await chat.openShowing(
      snapshot({ entries: [message('user', 'u1', 'Refactor')], turns: [finishedTurn()] }),
    );
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
});
