import assert from 'node:assert/strict';
import { events, turnUpdated } from './support/builders';
import type { ChatPage } from './support/chatPage';
import { changesTranscript } from './support/changesTranscript';
import { richTranscript } from './support/richTranscript';
import { useChatPages } from './support/suite';

describe('webview: accessibility', () => {
  const chat = useChatPages();

  it('names every control and marks up the conversation as a log', async () => {
    const page = await chat.open();
    for (const message of richTranscript()) {
      await page.host(message);
    }
    const transcript = page.page.locator('.transcript');
    assert.equal(await transcript.getAttribute('role'), 'log');
    assert.equal(await transcript.getAttribute('aria-live'), 'polite');
    assert.deepEqual(await unnamedControls(page), []);
    assert.equal(await page.page.locator('.tool-status').first().getAttribute('role'), 'img');
  });

  it('names every control of the change card and the checkpoint actions', async () => {
    const page = await chat.open();
    for (const message of changesTranscript()) {
      await page.host(message);
    }
    assert.ok(
      (await page.page.locator('.turn-changes .change-row button').count()) >= 10,
      'the rows are there',
    );
    assert.deepEqual(await unnamedControls(page), []);
    const card = page.page.locator('.turn-changes[data-turn-id="t2"]');
    assert.equal(await card.getAttribute('role'), 'group');
    assert.equal(await card.getAttribute('aria-label'), '5 files changed');
    assert.equal(await card.getByRole('img', { name: 'Created' }).count(), 2);
    // Every icon button says what it does, also as a tooltip.
    const iconButtons = await card
      .locator('.change-buttons button')
      .evaluateAll((buttons) => buttons.map((b) => [b.getAttribute('aria-label'), b.getAttribute('title')]));
    for (const [label, title] of iconButtons) {
      assert.ok(label && label === title, `${label} / ${title}`);
    }
    const keep = card.getByRole('button', { name: 'Keep the change to src/config.ts' });
    await keep.focus();
    await page.page.keyboard.press('Enter');
    assert.deepEqual((await page.posted()).at(-1), {
      type: 'turn_changes',
      turnId: 't2',
      action: 'keep',
      path: '/work/app/src/config.ts',
    });
    // The host's answer rebuilds the row; focus stays on that file rather than falling to the page.
    const snapshotMessage = changesTranscript()[0];
    const t2 = snapshotMessage?.type === 'snapshot' ? snapshotMessage.view.chat?.thread.turns[1] : undefined;
    assert.ok(t2?.changes);
    const decided = {
      ...t2,
      changes: {
        ...t2.changes,
        files: t2.changes.files.map((file) =>
          file.path === '/work/app/src/config.ts' ? { ...file, decision: 'kept' as const } : file,
        ),
      },
    };
    await page.host(events(turnUpdated(decided)));
    assert.equal(await card.getByRole('button', { name: 'Keep the change to src/config.ts' }).count(), 0);
    assert.equal(
      await page.page.evaluate(
        () => document.activeElement?.closest<HTMLElement>('.change-row')?.dataset.path,
      ),
      '/work/app/src/config.ts',
    );
    // A message's actions are made when it is focused (or hovered).
    for (const message of await page.page.locator('article.entry-user').all()) {
      await message.focus();
    }
    assert.equal(await page.page.getByRole('button', { name: 'Restore checkpoint' }).count(), 2);
    assert.deepEqual(await unnamedControls(page), []);

    // Keep all by keyboard: once nothing is pending its button goes, and focus moves to Review all.
    await card.locator('vscode-button', { hasText: 'Keep all' }).focus();
    await page.page.keyboard.press('Enter');
    assert.deepEqual((await page.posted()).at(-1), { type: 'turn_changes', turnId: 't2', action: 'keep' });
    const allKept = {
      ...decided,
      changes: {
        ...decided.changes,
        files: decided.changes.files.map((file) => ({ ...file, decision: 'kept' as const })),
      },
    };
    await page.host(events(turnUpdated(allKept)));
    assert.equal(await card.locator('vscode-button', { hasText: 'Keep all' }).count(), 0);
    assert.equal(await page.page.evaluate(() => document.activeElement?.textContent), 'Review all');
    assert.equal(await page.page.getByRole('note').filter({ hasText: 'Workspace restored' }).count(), 1);
  });

  it('reaches the controls by keyboard and shows focus with the theme focus border', async () => {
    const page = await chat.open();
    for (const message of richTranscript()) {
      await page.host(message);
    }
    // The permission prompt took focus; Shift+Tab walks back into the transcript's cards.
    assert.equal(await page.page.evaluate(() => document.activeElement?.textContent), 'Allow');
    const header = page.page.locator('[data-entry-id="e5"] .disclosure-header');
    await header.focus();
    await page.page.keyboard.press('Shift+Tab');
    await page.page.keyboard.press('Tab');
    const outline = await header.evaluate((element) => {
      const style = getComputedStyle(element);
      return `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`;
    });
    assert.equal(outline, 'solid 1px rgb(0, 120, 212)', 'Dark Modern focusBorder');
    await page.page.keyboard.press('Enter');
    assert.equal(await header.getAttribute('aria-expanded'), 'false');
    await page.page.locator('.composer-input').focus();
    await page.page.keyboard.type('typed with the keyboard');
    assert.equal(await page.page.locator('.composer-input').inputValue(), 'typed with the keyboard');
  });
});

/** Controls with no accessible name (aria-label, label or text). */
async function unnamedControls(page: ChatPage): Promise<string[]> {
  return page.page.evaluate(() =>
    Array.from(
      document.querySelectorAll(
        '#app :is(button, vscode-button, textarea, select, [role="button"])',
      ),
    )
      .filter((control) => {
        const name =
          control.getAttribute('aria-label') ?? control.getAttribute('label') ?? control.textContent ?? '';
        return name.trim() === '';
      })
      .map((control) => control.outerHTML.slice(0, 120)),
  );
}
