import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CHAT_ID, message, snapshot, turn } from './support/builders';
import { useChatPages } from './support/suite';

const OUT = resolve(__dirname, '../../test-results');

describe('webview: the "not being saved" notice', () => {
  const chat = useChatPages();

  it('shows "This chat is not being saved" while the journal cannot be written, and clears it (screenshot)', async () => {
    const page = await chat.open();
    const problem =
      'This chat is not being saved: its folder cannot be written (permission denied or read-only).';
    await page.host(
      snapshot({ entries: [message('user', 'e1', 'Refactor the parser')], turns: [turn('t1')] }),
    );
    await page.host({ type: 'save_problem', chatId: CHAT_ID, message: problem });
    const banner = page.page.locator('.save-banner');
    await mkdir(OUT, { recursive: true });
    await page.page.screenshot({ path: `${OUT}/not-being-saved.png` });
    assert.equal(await banner.innerText(), problem);
    await page.host({ type: 'save_problem', chatId: CHAT_ID });
    assert.equal(await banner.isHidden(), true);
  });

  it('locks the composer with the reason while another window writes the chat, and unlocks it after', async () => {
    const page = await chat.open();
    const problem =
      'This chat is not being saved: it is open for writing in another window (process 4242 on host-b).';
    await page.host(
      snapshot({ entries: [message('user', 'e1', 'Hello')], turns: [turn('t1', { status: 'completed' })] }),
    );
    const input = page.page.locator('.composer-input');
    await input.fill('Typed before the lock');
    await page.host({ type: 'save_problem', chatId: CHAT_ID, message: problem, readOnly: true });
    assert.equal(await input.isDisabled(), true);
    assert.equal(await page.page.locator('.send-button').getAttribute('disabled'), '');
    assert.equal(
      await page.page.locator('.composer-hint').innerText(),
      `Read-only in this window. ${problem}`,
    );
    await page.page
      .locator('.composer-input')
      .evaluate((el) => el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true })));
    assert.deepEqual(await page.postedOf('send'), [], 'nothing is sent while read-only');
    await mkdir(OUT, { recursive: true });
    await page.page.screenshot({ path: `${OUT}/read-only-other-window.png` });

    // A save problem of this window (a full disk) does not lock: the turn is held and written later.
    await page.host({
      type: 'save_problem',
      chatId: CHAT_ID,
      message: 'This chat is not being saved: the disk is full.',
    });
    assert.equal(await input.isDisabled(), false);
    await page.host({ type: 'save_problem', chatId: CHAT_ID, message: problem, readOnly: true });
    assert.equal(await input.isDisabled(), true);
    await page.host({ type: 'save_problem', chatId: CHAT_ID });
    assert.equal(await input.isDisabled(), false);
    assert.equal(await input.inputValue(), 'Typed before the lock');
    await input.press('Enter');
    assert.equal((await page.postedOf('send')).length, 1);
  });

  it('a chat read-only from the start (snapshot) shows the lock', async () => {
    const page = await chat.openShowing(
      snapshot(
        {},
        {
          chat: {
            chatId: CHAT_ID,
            thread: { entries: [], turns: [], state: { configOptions: [], commands: [], plan: [] } },
            saveProblem:
              'This chat is not being saved: it is open for writing in another window (process 1 on a).',
            readOnly: true,
          },
        },
      ),
    );
    assert.equal(await page.page.locator('.composer-input').isDisabled(), true);
    assert.match(await page.page.locator('.composer-hint').innerText(), /^Read-only in this window\./);
  });
});
