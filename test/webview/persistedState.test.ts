import assert from 'node:assert/strict';
import { added, ended, events, message, snapshot, started, turn } from './support/builders';
import { useChatPages } from './support/suite';
import { countStateWrites, stateWrites } from './support/stateWrites';
import type { ChatPage } from './support/chatPage';

/** Puts `state` where the VS Code stub keeps the webview's state, then reloads as VS Code would. */
async function reloadWithState(page: ChatPage, state: unknown): Promise<void> {
  await page.page.evaluate(
    (saved) => sessionStorage.setItem('vscode-webview-state', saved),
    JSON.stringify(state),
  );
  await page.page.reload();
  await page.waitForReady();
  await page.host(snapshot({ turns: [turn('t1', { status: 'completed', stopReason: 'end_turn' })] }));
}

describe('webview: state kept across the view being hidden', () => {
  const chat = useChatPages();

  it('keeps the draft when the saved queue is not valid, and drops only the queue', async () => {
    const page = await chat.openShowing(snapshot());
    await reloadWithState(page, { draft: 'kept draft', queue: [{ text: 5 }] });
    assert.equal(await page.page.locator('.composer-input').inputValue(), 'kept draft');
    assert.equal(await page.page.locator('.queued-message').count(), 0);
  });

  it('keeps the queue when the saved draft is not valid, and drops only the draft', async () => {
    const page = await chat.openShowing(snapshot());
    await reloadWithState(page, { draft: 42, queue: [{ text: 'kept queue', attachments: [] }] });
    assert.equal(await page.page.locator('.composer-input').inputValue(), '');
    assert.equal(await page.page.locator('.queued-text').inputValue(), 'kept queue');
  });

  it('starts empty from a state that is not an object', async () => {
    const page = await chat.openShowing(snapshot());
    await reloadWithState(page, 'garbage');
    assert.equal(await page.page.locator('.composer-input').inputValue(), '');
    assert.equal(await page.page.locator('.queued-message').count(), 0);
  });
});

describe('webview: drafts kept per chat', () => {
  const chat = useChatPages();

  /** A snapshot of the chat `chatId` (empty). */
  function chatSnapshot(chatId: string) {
    const message = snapshot();
    assert.ok(message.type === 'snapshot' && message.view.chat);
    return { ...message, view: { ...message.view, chat: { ...message.view.chat, chatId } } };
  }

  it('gives each chat its own draft: a new chat starts empty, going back brings the text back', async () => {
    const page = await chat.open();
    const input = page.page.locator('.composer-input');
    await page.host(chatSnapshot('chat-a'));
    await input.fill('typed in chat A');
    await page.host(chatSnapshot('chat-b'));
    assert.equal(await input.inputValue(), '', 'the draft does not follow to another chat');
    await input.fill('typed in chat B');
    await page.host(chatSnapshot('chat-a'));
    assert.equal(await input.inputValue(), 'typed in chat A');
    // After a reload (the view hidden and shown), the shown chat's draft is there.
    await page.page.reload();
    await page.waitForReady();
    assert.equal(await input.inputValue(), 'typed in chat A');
    await page.host(chatSnapshot('chat-b'));
    assert.equal(await input.inputValue(), 'typed in chat B');
  });
});

describe('webview: the saved state written only when it changes', () => {
  const chat = useChatPages();

  it('types, sends three turns, queues one, gets a snapshot again, reloads: no write repeats the saved state', async () => {
    const page = await chat.openShowing(snapshot(), { beforeLoad: countStateWrites });
    await page.host(snapshot());
    const input = page.page.locator('.composer-input');
    for (const n of [1, 2, 3]) {
      await input.fill(`ping ${n}`);
      await input.fill(`ping ${n}`); // the same text again (select all, paste the same)
      await input.press('Enter');
      await page.host(
        events(started(turn(`t${n}`)), added(message('user', `u${n}`, `ping ${n}`, { turnId: `t${n}` }))),
      );
      if (n === 3) {
        await page.send('queued while running');
      }
      await page.host(events(ended(turn(`t${n}`, { status: 'completed', stopReason: 'end_turn' }))));
    }
    await page.host(snapshot());
    // Reloaded (the view hidden and shown), the page shows the chat its state names: nothing to write.
    await page.page.reload();
    await page.waitForReady();
    await page.host(snapshot());
    const { writes, repeats } = await stateWrites(page.page);
    assert.ok(writes >= 6, `the flow saved its drafts and queue (${writes} writes)`);
    assert.equal(repeats, 0, `${repeats} of ${writes} writes repeated the saved state`);
  });
});
