import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { CHAT_ID, message, snapshot, viewState } from './support/builders';
import { useChatPages } from './support/suite';

const OUT = resolve(__dirname, '../../test-results');
const FOLDERS = ['/w/app', '/w/lib'];

describe('webview: the folder of a chat in a multi-root workspace', () => {
  const chat = useChatPages();

  for (const theme of ['dark', 'light'] as const) {
    it(`picks it for an empty chat and shows it once the chat has messages (${theme})`, async () => {
      const page = await chat.openShowing(snapshot({ entries: [] }, { workspaceFolders: FOLDERS }), {
        theme,
        width: 420,
        height: 300,
      });
      const select = page.page.getByRole('combobox', { name: 'Folder' });
      assert.deepEqual(await select.locator('option').allTextContents(), ['app', 'lib']);
      assert.equal(await select.inputValue(), '/w/app', 'the first folder by default');
      await page.page.screenshot({ path: `${OUT}/chat-folder-picker-${theme}.png` });
      await select.selectOption('/w/lib');
      assert.deepEqual((await page.posted()).at(-1), { type: 'set_chat_folder', folder: '/w/lib' });

      const state = viewState({ entries: [message('user', 'e1', 'hi')] }, { workspaceFolders: FOLDERS });
      await page.host({
        type: 'snapshot',
        view: { ...state, chat: { chatId: CHAT_ID, thread: state.chat!.thread, cwd: '/w/lib' } },
      });
      assert.equal(await select.count(), 0, 'no picker once the chat has messages');
      const label = page.page.locator('.folder-label');
      assert.equal(await label.textContent(), 'lib');
      assert.equal(await label.getAttribute('title'), 'The agent works in /w/lib');
      await page.page.screenshot({ path: `${OUT}/chat-folder-label-${theme}.png` });
    });
  }

  it('shows nothing with one folder', async () => {
    const page = await chat.openShowing(snapshot({ entries: [] }, { workspaceFolders: ['/w/app'] }), {
      width: 420,
      height: 300,
    });
    assert.equal(await page.page.locator('[data-picker="Folder"], .folder-label').count(), 0);
  });
});
