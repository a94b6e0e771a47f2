import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { TRANSCRIPT_URI_PREFIX, type ChatSummary } from '../../../src/protocol';
import { CHAT_ID, message, snapshot, turn } from '../support/builders';
import { openChatList } from '../support/chatList';
import { saveForDocs } from '../support/docs';
import { useChatPages } from '../support/suite';

const OUT = resolve(__dirname, '../../../test-results');
const NOW = Date.now();
const done = { status: 'completed' as const, endedAt: 1_700_000_001_000 };
const THREAD = {
  entries: [
    message('user', 'e1', 'Add a parser', { turnId: 't1' }),
    message('agent', 'e2', 'Added `parse()`.', { turnId: 't1' }),
    message('user', 'e3', 'Now make it strict', { turnId: 't2' }),
    message('agent', 'e4', 'Done.', { turnId: 't2' }),
  ],
  turns: [turn('t1', { ...done, checkpointId: 'cp-1' }), turn('t2', done)],
};
const chatSummary = (chatId: string, title: string, extra: Partial<ChatSummary> = {}): ChatSummary => ({
  chatId,
  title,
  agentId: 'copilot',
  agentLabel: 'Copilot CLI',
  updatedAt: NOW,
  running: false,
  ...extra,
});

describe('webview: edit and resend an earlier message', () => {
  const chat = useChatPages();

  for (const theme of ['dark', 'light'] as const) {
    it(`Edit puts the message in the composer and the send forks there (${theme})`, async () => {
      const page = await chat.openShowing(snapshot(THREAD), { theme, width: 480, height: 560 });
      await page.clearPosted();
      const first = page.page.locator('[data-entry-id="e1"]');
      await first.hover();
      await page.page.screenshot({ path: `${OUT}/edit-action-${theme}.png` });
      await first.getByRole('button', { name: 'Edit and resend' }).click();
      const input = page.page.locator('.composer-input');
      assert.equal(await input.inputValue(), 'Add a parser');
      assert.equal(await input.evaluate((element) => element === document.activeElement), true);
      const strip = page.page.locator('.edit-strip');
      assert.match((await strip.textContent()) ?? '', /sending forks the chat there/);
      // Its turn has a checkpoint: restoring the files first is offered.
      // The checkbox is a native one drawn like VS Code's: its label is what the user clicks.
      await page.page.getByText('Restore the files to before it first').click();
      assert.equal(await page.page.getByLabel('Restore the files to before it first').isChecked(), true);
      await input.fill('Add a strict parser');
      await page.page.screenshot({ path: `${OUT}/edit-resend-${theme}.png` });
      if (theme === 'dark') {
        await saveForDocs(`${OUT}/edit-resend-${theme}.png`, 'edit-resend.png');
      }
      await input.press('Enter');
      assert.deepEqual((await page.posted()).at(-1), {
        type: 'edit_resend',
        entryId: 'e1',
        restoreCheckpoint: true,
        text: 'Add a strict parser',
      });
      assert.equal(await strip.isHidden(), true, 'editing ends with the send');
    });
  }

  it('a send the host did not make (the restore was cancelled, or it failed) keeps the edit: same message, box ticked, text back', async () => {
    const page = await chat.openShowing(snapshot(THREAD), { width: 480, height: 560 });
    const edited = page.page.locator('[data-entry-id="e1"]');
    await edited.hover();
    await edited.getByRole('button', { name: 'Edit and resend' }).click();
    const restore = page.page.getByLabel('Restore the files to before it first');
    await page.page.getByText('Restore the files to before it first').click();
    assert.equal(await restore.isChecked(), true);
    const input = await page.send('Add a strict parser');
    const strip = page.page.locator('.edit-strip');
    assert.equal(await strip.isHidden(), true, 'sent: editing ends while the host works');

    for (const answer of [
      { type: 'send_cancelled' as const },
      { type: 'error' as const, message: 'Stop the running turn before restoring a checkpoint.' },
    ]) {
      await page.host(answer);
      assert.equal(await strip.isHidden(), false, `${answer.type}: editing goes on`);
      assert.equal(await restore.isChecked(), true, 'the restore box as it was');
      assert.equal(await input.inputValue(), 'Add a strict parser', 'the edit is back in the composer');
      if (answer.type === 'send_cancelled') {
        await page.page.screenshot({ path: `${OUT}/edit-resend-cancelled.png` });
        assert.doesNotMatch(
          await page.page.locator('body').innerText(),
          /error/i,
          'a cancel is not an error',
        );
      }
      await page.clearPosted();
      await input.press('Enter');
      assert.deepEqual(
        (await page.posted()).at(-1),
        {
          type: 'edit_resend',
          entryId: 'e1',
          restoreCheckpoint: true,
          text: 'Add a strict parser',
        },
        'sent again as the same edit, not as a plain send',
      );
    }
  });

  // 300 px is VS Code's default sidebar width; 240 px a narrowed one.
  for (const width of [300, 240]) {
    it(`lays the strip out in lines at ${width} px: its words, the checkbox and Cancel never overlap`, async () => {
      const page = await chat.openShowing(snapshot(THREAD), { width, height: 560 });
      // A message's actions are made when the pointer comes over it.
      const message = page.page.locator('[data-entry-id="e1"]');
      await message.hover();
      await message.getByRole('button', { name: 'Edit and resend' }).click();
      const box = async (selector: string) => {
        const found = await page.page.locator(`.edit-strip ${selector}`).boundingBox();
        assert.ok(found, `${selector} is shown`);
        return found;
      };
      const text = await box('.edit-strip-text');
      const restore = await box('label:has(input[type="checkbox"])');
      const close = await box('button[aria-label="Cancel editing"]');
      const lineHeight = await page.page
        .locator('.edit-strip-text')
        .evaluate((element) => parseFloat(getComputedStyle(element).lineHeight) || 16);
      const lines = Math.round(text.height / lineHeight);
      assert.ok(lines <= (width === 300 ? 2 : 3), `the text takes ${lines} lines`);
      assert.ok(text.width >= 140, `the text is ${text.width} px wide, not a column of words`);
      for (const [name, other] of [
        ['the checkbox', restore],
        ['Cancel', close],
      ] as const) {
        assert.ok(!overlaps(text, other), `the text and ${name} overlap`);
      }
      assert.ok(!overlaps(restore, close), 'the checkbox and Cancel overlap');
      await page.page.screenshot({ path: `${OUT}/edit-strip-${width}.png` });
    });
  }

  it('names the earlier conversation a fork carries for what it is, not by its file name', async () => {
    const page = await chat.open({ width: 300, height: 560 });
    const carried = {
      type: 'resource' as const,
      uri: `${TRANSCRIPT_URI_PREFIX}81f9a5a8-4bd0-4c1e-9f0e-2a7f3c1d9e11.md`,
      mimeType: 'text/markdown',
      chars: 293,
    };
    await page.host(
      snapshot({
        entries: [message('user', 'f1', 'Add a strict parser', { attachments: [carried] })],
        turns: [turn('t1', done)],
      }),
    );
    const chip = page.page.locator('[data-entry-id="f1"] .chip');
    assert.equal(collapse(await chip.innerText()), 'the conversation up to here 293 chars');
    assert.doesNotMatch((await chip.getAttribute('title')) ?? '', /\.md|81f9a5a8/);
  });

  it('offers no restore without a checkpoint, Cancel leaves editing, and a plain send stays a send', async () => {
    const page = await chat.openShowing(snapshot(THREAD), { width: 480, height: 560 });
    const second = page.page.locator('[data-entry-id="e3"]');
    // Keyboard: the message takes the focus, and its action is the next Tab stop.
    await second.focus();
    await page.page.keyboard.press('Tab');
    assert.equal(
      await page.page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
      'Edit and resend',
    );
    await page.page.keyboard.press('Enter');
    assert.equal(await page.page.getByLabel('Restore the files to before it first').count(), 0);
    await page.page.getByRole('button', { name: 'Cancel editing' }).click();
    assert.equal(await page.page.locator('.edit-strip').isHidden(), true);
    await page.clearPosted();
    await page.page.locator('.composer-input').press('Enter');
    assert.deepEqual((await page.posted()).at(-1), { type: 'send', text: 'Now make it strict' });
  });

  it('refuses while a turn runs, and lists a fork under the chat it forks', async () => {
    const page = await chat.open({ width: 480, height: 560 });
    const running = { ...THREAD, turns: [THREAD.turns[0]!, turn('t2')] };
    const chats = [
      chatSummary('fork-1', 'Fork of Add a parser', { forkOf: CHAT_ID }),
      chatSummary('other', 'Something else', { updatedAt: NOW - 60_000 }),
      chatSummary(CHAT_ID, 'Add a parser', { updatedAt: NOW - 120_000 }),
    ];
    await page.host(snapshot(running, { chats }));
    await page.page.locator('[data-entry-id="e1"]').hover();
    await page.page.locator('[data-entry-id="e1"]').getByRole('button', { name: 'Edit and resend' }).click();
    assert.equal(await page.page.locator('.edit-strip').isHidden(), true);
    assert.match(await page.page.locator('body').innerText(), /Wait for the agent to finish/);

    await openChatList(page);
    const rows = page.page.locator('.chat-list-items').first().locator('.chat-row');
    assert.deepEqual(await rows.locator('.chat-title').allTextContents(), [
      'Something else',
      'Add a parser',
      'Fork of Add a parser',
    ]);
    assert.equal(await rows.nth(2).evaluate((row) => row.classList.contains('chat-fork')), true);
  });
});

interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
