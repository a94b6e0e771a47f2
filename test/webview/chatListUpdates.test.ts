import assert from 'node:assert/strict';
import type { ElementHandle } from 'playwright-core';
import type { ChatSummary } from '../../src/protocol';
import { CHAT_ID, chatSummary, snapshot, viewState } from './support/builders';
import type { ChatPage } from './support/chatPage';
import { openChatList } from './support/chatList';
import { useChatPages } from './support/suite';

const NOW = Date.now();
const CHATS: ChatSummary[] = [
  chatSummary({ updatedAt: NOW, running: true }),
  chatSummary({ chatId: 'chat-2', title: 'Write docs', updatedAt: NOW - 3_600_000 }),
  chatSummary({ chatId: 'chat-3', title: 'Old question', updatedAt: NOW - 86_400_000 }),
  chatSummary({ chatId: 'chat-4', title: 'Older question', updatedAt: NOW - 2 * 86_400_000 }),
];

/** The host posting the chat list again, as it does while agents work. */
function chatsUpdate(chats: readonly ChatSummary[], activeChatId = CHAT_ID) {
  return { type: 'chats', chats: [...chats], activeChatId } as const;
}

function rows(page: ChatPage) {
  return page.page.locator('#chat-list > .chat-list-items > .chat-row');
}

async function titles(page: ChatPage): Promise<string[]> {
  return rows(page).locator('.chat-title').allTextContents();
}

/** Whether `handle` is the very element the locator finds now (not a new one like it). */
async function same(page: ChatPage, selector: string, handle: ElementHandle): Promise<boolean> {
  return page.page.evaluate(([css, element]) => document.querySelector(css) === element, [
    selector,
    handle,
  ] as const);
}

/** Presses the mouse on the `index`th row's open button (and keeps it down); returns where. */
async function pressRow(
  page: ChatPage,
  index: number,
): Promise<{ x: number; y: number; width: number; height: number }> {
  const box = await rows(page).nth(index).locator('.chat-open').boundingBox();
  assert.ok(box, 'the row shows');
  await page.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.page.mouse.down();
  return box;
}

describe('webview: the chat list while the host updates it', () => {
  const chat = useChatPages();

  async function openList(): Promise<ChatPage> {
    const page = await chat.openShowing(snapshot({}, { chats: CHATS }));
    await openChatList(page);
    return page;
  }

  it('keeps a click that was pressed before an update and released after it', async () => {
    const page = await openList();
    await pressRow(page, 2);
    // Another chat's title and time change, and it moves to the top, between the press and the release.
    const moved = { ...CHATS[1]!, title: 'Write the docs', updatedAt: Date.now() };
    await page.host(chatsUpdate([moved, CHATS[0]!, CHATS[2]!, CHATS[3]!]));
    await page.page.mouse.up();
    assert.deepEqual((await page.posted()).at(-1), { type: 'switch_chat', chatId: 'chat-3' });
    assert.equal(await page.page.locator('#chat-list').isVisible(), false, 'the list closes');
  });

  it('keeps the click even when the update moves the pressed chat itself, and shows the update after it', async () => {
    const page = await openList();
    await pressRow(page, 2);
    // The pressed chat itself goes to the top (its agent answered) between the press and the release.
    const answered = { ...CHATS[2]!, title: 'Old question, answered', updatedAt: Date.now() };
    await page.host(chatsUpdate([answered, CHATS[0]!, CHATS[1]!, CHATS[3]!]));
    assert.deepEqual(await titles(page), ['Fix the parser', 'Write docs', 'Old question', 'Older question']);
    await page.page.mouse.up();
    assert.deepEqual((await page.posted()).at(-1), { type: 'switch_chat', chatId: 'chat-3' });

    // Pressed and let go elsewhere (no click): the update held meanwhile shows then.
    await openChatList(page);
    const first = await pressRow(page, 0);
    await page.host(chatsUpdate([CHATS[3]!, answered, CHATS[0]!, CHATS[1]!]));
    await page.page.mouse.move(first.x + first.width / 2, first.y + first.height + 400);
    await page.page.mouse.up();
    await page.page.waitForFunction(
      () => document.querySelector('#chat-list .chat-row .chat-title')?.textContent === 'Older question',
    );
    assert.deepEqual(await titles(page), [
      'Older question',
      'Old question, answered',
      'Fix the parser',
      'Write docs',
    ]);
  });

  it('applies one chat’s change as the whole list would: moved to the top, changed in place, keeping its row', async () => {
    const page = await openList();
    const row = await rows(page).nth(2).elementHandle();
    assert.ok(row);
    const answered = { ...CHATS[2]!, title: 'Old question, answered', updatedAt: Date.now(), running: true };
    await page.host({ type: 'chat_changed', chat: answered, index: 0 });
    assert.deepEqual(await titles(page), [
      'Old question, answered',
      'Fix the parser',
      'Write docs',
      'Older question',
    ]);
    assert.equal(await same(page, '#chat-list .chat-row', row), true, 'the chat kept its row, now first');
    await page.host({ type: 'chat_changed', chat: { ...CHATS[1]!, title: 'Write the docs' }, index: 2 });
    assert.deepEqual(await titles(page), [
      'Old question, answered',
      'Fix the parser',
      'Write the docs',
      'Older question',
    ]);
  });

  it('keeps the keyboard on the same chat, wherever the update puts it', async () => {
    const page = await openList();
    const third = rows(page).nth(2).locator('.chat-open');
    await third.focus();
    const focused = await third.elementHandle();
    assert.ok(focused);
    const renamed = { ...CHATS[2]!, title: 'Old question, answered', updatedAt: Date.now(), running: true };
    await page.host(chatsUpdate([renamed, CHATS[0]!, CHATS[1]!, CHATS[3]!]));
    assert.deepEqual(await titles(page), [
      'Old question, answered',
      'Fix the parser',
      'Write docs',
      'Older question',
    ]);
    assert.equal(
      await page.page.evaluate((element) => document.activeElement === element, focused),
      true,
      'focus is still on the same button',
    );
    assert.equal(await focused.getAttribute('title'), 'Old question, answered');
    // And an update that leaves it in place keeps it too.
    await page.host(chatsUpdate([renamed, CHATS[1]!, CHATS[0]!, CHATS[3]!]));
    assert.equal(await page.page.evaluate((element) => document.activeElement === element, focused), true);
    await page.page.keyboard.press('Enter');
    assert.deepEqual((await page.posted()).at(-1), { type: 'switch_chat', chatId: 'chat-3' });
  });

  it('follows a reorder and a removal, with forks under their origin and no row twice', async () => {
    const fork = chatSummary({ chatId: 'fork-1', title: 'Fork of Write docs', forkOf: 'chat-2' });
    const page = await chat.openShowing(snapshot({}, { chats: [...CHATS, fork] }));
    await openChatList(page);
    assert.deepEqual(await titles(page), [
      'Fix the parser',
      'Write docs',
      'Fork of Write docs',
      'Old question',
      'Older question',
    ]);
    const keptRow = await rows(page).nth(1).elementHandle();
    assert.ok(keptRow);
    // chat-4 moves to the top, chat-3 is deleted, a new chat comes.
    const added = chatSummary({ chatId: 'chat-5', title: 'Brand new', updatedAt: NOW - 10 });
    await page.host(chatsUpdate([CHATS[3]!, added, CHATS[0]!, fork, CHATS[1]!]));
    assert.deepEqual(await titles(page), [
      'Older question',
      'Brand new',
      'Fix the parser',
      'Write docs',
      'Fork of Write docs',
    ]);
    assert.equal(await rows(page).count(), 5);
    assert.equal(await page.page.locator('#chat-list .chat-row').count(), 5, 'no row twice');
    const forks = await rows(page).evaluateAll((all) =>
      all.map((row) => row.classList.contains('chat-fork')),
    );
    assert.deepEqual(forks, [false, false, false, false, true]);
    assert.equal(
      await same(page, '#chat-list .chat-row:nth-child(4)', keptRow),
      true,
      'Write docs kept its row',
    );
    // Its origin gone, the fork is a chat of its own.
    await page.host(chatsUpdate([fork, CHATS[0]!]));
    assert.deepEqual(await titles(page), ['Fork of Write docs', 'Fix the parser']);
    assert.equal(
      await rows(page)
        .first()
        .evaluate((row) => row.classList.contains('chat-fork')),
      false,
    );
    await page.host(chatsUpdate([]));
    assert.deepEqual(
      await page.page.locator('#chat-list > .chat-list-items').first().innerText(),
      'No chats yet.',
    );
    await page.host(chatsUpdate([CHATS[0]!]));
    assert.deepEqual(await titles(page), ['Fix the parser']);
    assert.equal(await page.page.locator('.chat-list-empty').count(), 0);
  });

  it('moves only the rows whose place changed', async () => {
    const page = await openList();
    /** The rows the update took out of the list (a moved row is taken out and put back). */
    const movedBy = async (chats: readonly ChatSummary[]): Promise<string[]> => {
      await page.page.evaluate(() => {
        const seen = window as unknown as { rowMoves: string[]; rowObserver?: MutationObserver };
        seen.rowObserver?.disconnect();
        seen.rowMoves = [];
        seen.rowObserver = new MutationObserver((records) => {
          for (const node of records.flatMap((record) => [...record.removedNodes])) {
            seen.rowMoves.push((node as HTMLElement).querySelector('.chat-title')?.textContent ?? '');
          }
        });
        seen.rowObserver.observe(document.querySelector('#chat-list > .chat-list-items')!, {
          childList: true,
        });
      });
      await page.host(chatsUpdate(chats));
      return page.page.evaluate(() => (window as unknown as { rowMoves: string[] }).rowMoves);
    };
    const [a, b, c, d] = CHATS as [ChatSummary, ChatSummary, ChatSummary, ChatSummary];
    assert.deepEqual(await movedBy([a, b, c, d]), [], 'the same order moves nothing');
    assert.deepEqual(await movedBy([b, c, d, a]), ['Fix the parser'], 'the top chat goes to the bottom');
    assert.deepEqual(await movedBy([d, b, c, a]), ['Older question'], 'the bottom chat goes to the top');
    assert.equal((await movedBy([b, a, d, c])).length, 2, 'two swaps: two rows, no more');
    assert.deepEqual(await titles(page), ['Write docs', 'Fix the parser', 'Older question', 'Old question']);
  });

  it('updates what a row shows in place, and acts on the chat as it is when clicked', async () => {
    const page = await openList();
    const open = await rows(page).first().locator('.chat-open').elementHandle();
    assert.ok(open);
    const waiting = {
      ...CHATS[0]!,
      running: false,
      activity: 'waiting',
      waitingFor: 'permission: Edit README.md',
    } as const;
    await page.host(chatsUpdate([waiting, ...CHATS.slice(1)]));
    // The view shows chat-2 meanwhile (switched from another surface): the first row's chat is no longer it.
    const view = viewState({}, { chats: [waiting, ...CHATS.slice(1)] });
    await page.host({ type: 'snapshot', view: { ...view, chat: { ...view.chat!, chatId: 'chat-2' } } });
    await page.screenshot('chat-list-after-update');
    const first = rows(page).first();
    assert.equal(await first.getAttribute('aria-current'), null);
    assert.equal(await rows(page).nth(1).getAttribute('aria-current'), 'true');
    assert.equal(await first.evaluate((row) => row.classList.contains('chat-waiting')), true);
    assert.equal(await first.locator('.codicon-loading').count(), 0, 'no longer running');
    assert.equal(
      await first.locator('.chat-activity-waiting').getAttribute('aria-label'),
      'Waits for you: permission: Edit README.md',
    );
    assert.equal(await same(page, '#chat-list .chat-open', open), true, 'the same button');
    await first.locator('.chat-open').click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'switch_chat', chatId: CHAT_ID });
  });

  it('keeps a delete confirmation and a rename through updates', async () => {
    const page = await openList();
    await rows(page).nth(2).hover();
    await page.page.getByRole('button', { name: 'Delete Old question' }).click();
    const confirming = page.page.locator('.chat-row.confirming');
    const renamed = { ...CHATS[2]!, title: 'Old question, renamed' };
    await page.host(chatsUpdate([CHATS[1]!, CHATS[0]!, renamed, CHATS[3]!]));
    assert.match(await confirming.innerText(), /Delete “Old question, renamed”\?/);
    await confirming.locator('vscode-button', { hasText: 'Cancel' }).click();
    assert.equal(await confirming.count(), 0);
    assert.equal(
      await page.page.evaluate(() => document.activeElement?.getAttribute('title')),
      'Old question, renamed',
      'focus goes back to the chat it was about',
    );

    await rows(page).filter({ hasText: 'Write docs' }).hover();
    await page.page.getByRole('button', { name: 'Rename Write docs' }).click();
    const field = page.page.locator('.chat-rename');
    await field.fill('Write the docs');
    await page.host(chatsUpdate([CHATS[0]!, CHATS[1]!, renamed, CHATS[3]!]));
    assert.equal(await field.inputValue(), 'Write the docs', 'an update leaves the field alone');
    await field.press('Enter');
    assert.deepEqual((await page.posted()).at(-1), {
      type: 'rename_chat',
      chatId: 'chat-2',
      title: 'Write the docs',
    });
    assert.deepEqual(await titles(page), [
      'Fix the parser',
      'Write docs',
      'Old question, renamed',
      'Older question',
    ]);
  });
});
