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
});
