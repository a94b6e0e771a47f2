import assert from 'node:assert/strict';
import { CHAT_ID, snapshot, viewState } from './support/builders';
import { useChatPages } from './support/suite';

/** The webview state VS Code keeps for the view (the stub keeps it in sessionStorage under this key). */
const STATE_KEY = 'vscode-webview-state';

describe('webview: the chat it shows survives a reload (editor tabs, issue 11 item 6)', () => {
  const chat = useChatPages();

  it('keeps the shown chat in its state, with the draft, and follows a switch', async () => {
    const page = await chat.open();
    const state = async (): Promise<unknown> =>
      page.page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? 'null') as unknown, STATE_KEY);
    await page.host(snapshot());
    assert.deepEqual(await state(), { draft: '', chatId: CHAT_ID });

    await page.page.locator('.composer-input').fill('a draft');
    const other = viewState();
    await page.host({
      type: 'snapshot',
      view: { ...other, chat: { chatId: 'chat-2', thread: other.chat!.thread } },
    });
    const kept = (await state()) as { chatId?: string; draft?: string };
    assert.equal(kept.chatId, 'chat-2', 'the switch is remembered');

    await page.page.reload();
    await page.waitForReady();
    assert.equal(((await state()) as { chatId?: string }).chatId, 'chat-2', 'the state outlives the reload');
  });
});
