/**
 * Issue 8 in a real VS Code, clicked as a user would: an agent that writes files itself (the test agent's
 * `own` scenario, no fs/write_text_file) leaves a change card under its turn; Undo all and Keep all act on
 * the disk; "Restore checkpoint" under an earlier message asks in the workbench's dialog and puts the
 * files back. Also makes the README's screenshot of the change review (docs/changes.png).
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Locator } from 'playwright-core';
import { docsScreenshot, openChat, UI_TIMEOUT, WorkspaceTempFolder } from './support/chat';
import { useWorkbench } from './support/lifecycle';
import { hashTree } from '../support/hashTree';

describe('the change card and checkpoints, clicked in the chat (issue 8)', () => {
  let folder: WorkspaceTempFolder;
  before(() => {
    folder = new WorkspaceTempFolder('changes');
  });
  // Each test starts its own chat, so it passes alone and in any order.
  const chat = useWorkbench({
    layout: { width: 1600, height: 1000, sidebarWidth: 520 },
    newChatEachTest: true,
  });
  after(() => {
    folder?.dispose();
  });

  /** `name` in the test folder, relative to the workspace folder (the agent's cwd). */
  function rel(name: string): string {
    return `${basename(folder.path)}/${name}`;
  }

  /**
   * A change card's file row marked `decision` — its own state, not its text: a file named
   * reload-undone.txt says "undone" before its Undo is done.
   */
  function decidedRow(decision: 'kept' | 'undone'): string {
    return `.change-card [data-decision="${decision}"]`;
  }

  /** The turn's change card once its list is final (not live) and names `files` files. */
  async function finalCard(turnId: string, files: number): Promise<Locator> {
    const card = chat.turn(turnId).locator('.change-card');
    await card.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await chat.frame.waitForFunction(
      ({ id, files }) => {
        const element = document.querySelector(`section.turn[data-turn-id="${id}"] .change-card`);
        return (
          element !== null &&
          !element.querySelector('.live') &&
          new RegExp(`^${files} files? changed`).test(element.textContent?.trim() ?? '')
        );
      },
      { id: turnId, files },
      { timeout: UI_TIMEOUT },
    );
    return card;
  }

  /** Clicks Restore checkpoint under the message that started the turn (made when the pointer comes over it). */
  async function restoreCheckpointOf(turnId: string): Promise<void> {
    const message = chat.turn(turnId).locator('article.entry-user');
    await message.hover();
    await message.getByRole('button', { name: /Restore checkpoint/ }).click();
  }

  async function changeTurn(prompt: string, files: number): Promise<{ turnId: string; card: Locator }> {
    const turnId = await chat.sendPrompt(prompt);
    await chat.waitForTurnStatus(turnId, 'completed');
    return { turnId, card: await finalCard(turnId, files) };
  }

  it('Undo all puts back every file the agent changed by itself, byte for byte', async () => {
    fs.writeFileSync(folder.file('notes.md'), '# Notes\r\n\r\nkeep me\r\n');
    fs.writeFileSync(folder.file('obsolete.txt'), 'old\n');
    const { card } = await changeTurn(
      // Paths relative to the workspace folder (the agent's cwd), as a user would type them.
      `own write ${rel('notes.md')} # Notes\\n\\nrewritten by the agent\\n ; write ${rel('added.ts')} export const added = 1;\\n ; delete ${rel('obsolete.txt')}`,
      3,
    );
    assert.equal(fs.existsSync(folder.file('obsolete.txt')), false);
    // Review all: every file's diff in VS Code's multi-file diff editor, beside the card.
    await card.getByRole('button', { name: 'Review all' }).click();
    await chat.page
      .locator('.tabs-container .tab', { hasText: 'Agent changes' })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    // The picture once the diff editors show the agent's text, not merely once the tab exists.
    await chat.page
      .locator('.editor-instance .view-lines', { hasText: 'rewritten by the agent' })
      .first()
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await docsScreenshot(chat.page, 'changes.png');

    await card.getByRole('button', { name: 'Undo all' }).click();
    await chat.frame.waitForFunction(
      () => document.querySelectorAll('.change-card .change-decide-all').length === 0,
      undefined,
      { timeout: UI_TIMEOUT },
    );
    assert.equal(fs.readFileSync(folder.file('notes.md'), 'utf8'), '# Notes\r\n\r\nkeep me\r\n');
    assert.equal(fs.readFileSync(folder.file('obsolete.txt'), 'utf8'), 'old\n');
    assert.equal(fs.existsSync(folder.file('added.ts')), false);
  });

  it('Undo all after the agent swapped a folder for a link to outside: the outside folder is unchanged, the card says why', async () => {
    const outside = fs.mkdtempSync(join(tmpdir(), 'acp-e2e-outside-'));
    try {
      fs.writeFileSync(join(outside, 'a.txt'), 'outside\n');
      fs.mkdirSync(join(outside, 'sub'));
      fs.writeFileSync(join(outside, 'sub', 'key'), 'secret\n');
      const before = hashTree(outside);
      fs.mkdirSync(folder.file('dir'));
      fs.writeFileSync(folder.file('dir/a.txt'), 'mine\n');
      const { turnId, card } = await changeTurn(
        `own write ${rel('dir/a.txt')} agent ; write ${rel('dir/new.txt')} x ; link ${rel('dir')} ${outside}`,
        2,
      );
      // The card lists the link the agent made, with its target, and says plainly where it leads.
      await card
        .getByText(/outside the workspace: the agent may have changed files outside the workspace through it/)
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await card.getByRole('button', { name: 'Undo all' }).click();
      const note = chat
        .turn(turnId)
        .locator('.change-card .change-note', { hasText: 'Left alone' })
        .filter({ hasText: /dir\/ is now a link to a folder outside the workspace/ });
      await note.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.equal(await chat.page.locator('.monaco-dialog-box').count(), 0, 'nothing was asked');
      assert.equal(
        hashTree(outside),
        before,
        'nothing outside the workspace was written, created or deleted',
      );
      assert.equal(fs.readlinkSync(folder.file('dir')), outside, 'the link is left as it is');
      fs.mkdirSync('test-results/e2e', { recursive: true });
      await card.screenshot({ path: 'test-results/e2e/changes-link-swap-card.png' });
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('Keep all leaves the files as the agent wrote them', async () => {
    const { turnId, card } = await changeTurn(`own write ${rel('kept.txt')} agent version`, 1);
    await card.getByRole('button', { name: 'Keep all' }).click();
    await chat.turn(turnId).locator(decidedRow('kept')).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(fs.readFileSync(folder.file('kept.txt'), 'utf8'), 'agent version');
  });

  it('Restore checkpoint asks in a dialog, then puts the workspace back to before that message', async () => {
    fs.writeFileSync(folder.file('story.txt'), 'once\n');
    const first = await changeTurn(`own write ${rel('story.txt')} twice`, 1);
    await changeTurn(`own write ${rel('story.txt')} thrice ; shell printf x > ${rel('extra.txt')}`, 2);

    await restoreCheckpointOf(first.turnId);
    const dialog = chat.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.match(
      await dialog.locator('.dialog-message-text').innerText(),
      /Restore the workspace to before this message/,
    );
    assert.match(await dialog.locator('.dialog-message-detail').innerText(), /extra\.txt/);
    await dialog.locator('.dialog-buttons .monaco-button', { hasText: 'Restore' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });

    // The mark sits above the restored message's turn.
    await chat.frame
      .getByText('Workspace restored to before this message')
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(fs.readFileSync(folder.file('story.txt'), 'utf8'), 'once\n');
    assert.equal(fs.existsSync(folder.file('extra.txt')), false);
  });

  it('a message sent at once after Undo all: the next turn lists only its own file, and Restore deletes it', async () => {
    // Enough files that their Undo (VS Code deletes one after another) is still going when the message is sent.
    const names = Array.from({ length: 16 }, (_, index) => `quick-undone-${index}.txt`);
    const undone = await changeTurn(
      `own ${names.map((name) => `write ${rel(name)} undone`).join(' ; ')}`,
      16,
    );
    await undone.card.getByRole('button', { name: 'Undo all' }).click();
    // No wait for the Undo: the next message goes while its files are being put back.
    const next = await changeTurn(`own write ${rel('quick-next.txt')} next`, 1);
    // Its card is folded (16 rows): each row's state is read, not seen.
    await chat.frame.waitForFunction(
      ({ id, files }) =>
        document.querySelectorAll(`section.turn[data-turn-id="${id}"] .change-card [data-decision="undone"]`)
          .length === files,
      { id: undone.turnId, files: names.length },
      { timeout: UI_TIMEOUT },
    );
    assert.deepEqual(
      names.filter((name) => fs.existsSync(folder.file(name))),
      [],
    );
    const row = next.card.locator('[data-path]');
    assert.equal(await row.getAttribute('data-kind'), 'created');
    assert.equal(await row.getAttribute('data-path'), folder.file('quick-next.txt'));
    await restoreCheckpointOf(next.turnId);
    const dialog = chat.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await dialog.locator('.dialog-buttons .monaco-button', { hasText: 'Restore' }).click();
    await chat.frame
      .getByText('Workspace restored to before this message')
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(
      fs.existsSync(folder.file('quick-next.txt')),
      false,
      'the turn created it: Restore deletes it',
    );
    assert.equal(
      fs.existsSync(folder.file('quick-undone.txt')),
      false,
      'undone before the message: not brought back',
    );
  });

  it('keeps the change cards, their decisions and the restore mark after a window reload', async () => {
    // Its own history: a kept turn, an undone turn, and a turn the workspace was restored to before.
    const kept = await changeTurn(`own write ${rel('reload-kept.txt')} kept`, 1);
    await kept.card.getByRole('button', { name: 'Keep all' }).click();
    await chat
      .turn(kept.turnId)
      .locator(decidedRow('kept'))
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    const undone = await changeTurn(`own write ${rel('reload-undone.txt')} undone`, 1);
    await undone.card.getByRole('button', { name: 'Undo all' }).click();
    await chat
      .turn(undone.turnId)
      .locator(decidedRow('undone'))
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    const restored = await changeTurn(`own write ${rel('reload-restored.txt')} restored`, 1);
    await restoreCheckpointOf(restored.turnId);
    const dialog = chat.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await dialog.locator('.dialog-buttons .monaco-button', { hasText: 'Restore' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    await chat.frame
      .getByText('Workspace restored to before this message')
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(fs.existsSync(folder.file('reload-restored.txt')), false);
    const before = await chat.frame.locator('.change-card').count();
    assert.equal(before, 3, 'one card per turn that changed files');

    await chat.page.reload({ waitUntil: 'domcontentloaded', timeout: 60_000 });
    await chat.page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
    chat.frame = await openChat(chat.page);
    await chat.frame.locator('.change-card').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(await chat.frame.locator('.change-card').count(), before);
    await chat.frame.getByText('Workspace restored to before this message').waitFor({ timeout: UI_TIMEOUT });
    assert.equal(await chat.turn(kept.turnId).locator(decidedRow('kept')).count(), 1);
    assert.equal(await chat.turn(undone.turnId).locator(decidedRow('undone')).count(), 1);
  });
});
