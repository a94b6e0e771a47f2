import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { HostMessage, WorktreeInfo } from '../../../src/protocol';
import { CHAT_ID, chatSummary, ended, events, message, snapshot, started, turn } from '../support/builders';
import { useChatPages } from '../support/suite';

const OUT = resolve(__dirname, '../../../test-results');

const WORKTREE: WorktreeInfo = {
  folder: '/home/user/project.worktrees/parser-fix',
  name: 'parser-fix',
  branch: 'acp/parser-fix',
  base: '1a2b3c4d',
  changes: { files: 3, added: 42, removed: 7, unapplied: true },
};

function worktree(info: WorktreeInfo | undefined, chatId = CHAT_ID): HostMessage {
  return { type: 'worktree', chatId, ...(info ? { worktree: info } : {}) };
}

describe('webview: a chat in its own worktree, and every chat’s status in the list', () => {
  const chat = useChatPages();

  it('shows the branch, the folder and what it holds, and sends each step', async () => {
    const page = await chat.open();
    await page.host(snapshot());
    const bar = page.page.getByRole('region', { name: 'Worktree' });
    assert.equal(await bar.isVisible(), false, 'hidden for a chat in the workspace');
    await page.host(worktree(WORKTREE));
    assert.equal(await bar.locator('.worktree-branch-name').textContent(), 'acp/parser-fix');
    assert.equal(await bar.locator('.worktree-folder').textContent(), 'parser-fix');
    assert.equal(await bar.locator('.worktree-changes').textContent(), '+42 −7 in 3 files');
    await bar.locator('vscode-button', { hasText: 'Apply to Workspace' }).click();
    await bar.getByRole('button', { name: 'Commit on its branch' }).click();
    await bar.getByRole('button', { name: 'Open the worktree in a new window' }).click();
    await bar.getByRole('button', { name: 'Discard the worktree and its branch' }).click();
    await bar.locator('.worktree-changes').click();
    assert.deepEqual(
      (await page.postedOf('worktree_action')).map((posted) => posted.action),
      ['apply', 'commit', 'open_window', 'discard', 'show_changes'],
    );
    await page.host(worktree(WORKTREE, 'another-chat'));
    await page.host(worktree(undefined, 'another-chat'));
    assert.equal(await bar.isVisible(), true, "another chat's worktree changes nothing here");
    page.assertClean();
  });

  it('holds the steps while a turn runs or a step is under way, and says why a chat cannot work in it', async () => {
    const page = await chat.open();
    await page.host(snapshot({}, { worktree: WORKTREE }));
    const bar = page.page.getByRole('region', { name: 'Worktree' });
    const apply = bar.locator('vscode-button', { hasText: 'Apply to Workspace' });
    await page.host(events(started(turn('t1'))));
    assert.equal(await apply.getAttribute('disabled'), '');
    await page.host(events(ended(turn('t1', { status: 'completed', stopReason: 'end_turn' }))));
    assert.equal(await apply.getAttribute('disabled'), null);
    await page.host(worktree({ ...WORKTREE, busy: 'Applying…' }));
    assert.equal(await bar.locator('.worktree-note').textContent(), 'Applying…');
    assert.equal(await apply.getAttribute('disabled'), '');
    await page.host(worktree({ ...WORKTREE, problem: 'This chat’s worktree is in use in another window (process 7 on host): send from that window.' }));
    assert.match((await bar.locator('.worktree-problem').textContent()) ?? '', /in use in another window/);
    page.assertClean();
  });

  it('offers an empty chat a new worktree, or says why not; a chat that started is not offered one', async () => {
    const page = await chat.open();
    await page.host(snapshot({}, { worktreeOffer: { available: true } }));
    const bar = page.page.getByRole('region', { name: 'Worktree' });
    const start = bar.locator('vscode-button', { hasText: 'Start in a new worktree' });
    const several = bar.locator('vscode-button', { hasText: 'Ask several agents…' });
    await start.click();
    await several.click();
    assert.deepEqual(await page.postedOf('worktree_action'), [
      { type: 'worktree_action', action: 'create' },
      { type: 'worktree_action', action: 'ask_several' },
    ]);
    await page.host(
      snapshot({}, { worktreeOffer: { available: false, reason: 'Worktrees are not used in Restricted Mode: trust the workspace first.' } }),
    );
    assert.equal(await start.getAttribute('disabled'), '');
    assert.equal(await several.getAttribute('disabled'), '', 'no agents asked in Restricted Mode either');
    assert.match((await bar.locator('.worktree-note').textContent()) ?? '', /Restricted Mode/);
    await page.host(snapshot({ entries: [message('user', 'u1', 'hello')] }, { worktreeOffer: { available: true } }));
    assert.equal(await bar.isVisible(), false);
    page.assertClean();
  });

  it('leaves the empty chat readable from its first line when the view gets short under the bar (screenshot)', async () => {
    const page = await chat.open({ width: 300, height: 640 });
    await page.host(snapshot({}, { worktreeOffer: { available: true } }));
    const bar = page.page.getByRole('region', { name: 'Worktree' });
    await bar.locator('vscode-button', { hasText: 'Ask several agents…' }).waitFor();
    await page.page.locator('.empty-state .empty-title').waitFor();
    await page.page.evaluate(() => document.fonts.ready);
    // Another view opens below the chat (Compare Agents): the chat's view is short now, and the empty
    // chat grows (its recent chats arrive).
    await page.page.setViewportSize({ width: 300, height: 300 });
    await page.host({
      type: 'chats',
      activeChatId: CHAT_ID,
      chats: [
        chatSummary({ chatId: CHAT_ID, title: '' }),
        ...['c2', 'c3', 'c4'].map((chatId) => chatSummary({ chatId, title: `Earlier ${chatId}`, activity: 'unread' as const })),
      ],
    });
    await page.page.locator('.empty-state', { hasText: 'Earlier c4' }).waitFor();
    await page.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const edges = async (selector: string) => {
      const box = await page.page.locator(selector).first().boundingBox();
      assert.ok(box, `${selector} is laid out`);
      return { top: box.y, bottom: box.y + box.height };
    };
    const boxes = {
      bar: await edges('.worktree-bar'),
      transcript: await edges('.transcript'),
      title: await edges('.empty-state .empty-title'),
    };
    await mkdir(OUT, { recursive: true });
    await page.page.screenshot({ path: `${OUT}/worktree-bar-short.png` });
    assert.ok(boxes.bar.bottom <= boxes.transcript.top + 0.5, `the bar ends above the transcript: ${JSON.stringify(boxes)}`);
    assert.ok(
      boxes.title.top >= boxes.transcript.top,
      `the empty chat's first line is not hidden under the bar: ${JSON.stringify(boxes)}`,
    );
    page.assertClean();
  });

  it('marks each chat in the list: running, waiting for you, finished unread, failed', async () => {
    const page = await chat.open();
    await page.host(snapshot());
    await page.host({
      type: 'chats',
      activeChatId: CHAT_ID,
      chats: [
        chatSummary({ chatId: CHAT_ID, title: 'Running one', activity: 'running', running: true }),
        chatSummary({ chatId: 'c2', title: 'Asks', activity: 'waiting', waitingFor: 'permission: Edit README.md' }),
        chatSummary({ chatId: 'c3', title: 'Done', activity: 'unread' }),
        chatSummary({ chatId: 'c4', title: 'Broke', activity: 'failed' }),
        chatSummary({ chatId: 'c5', title: 'Quiet' }),
      ],
    });
    await page.host({ type: 'show_chat_list' });
    const marks = page.page.locator('.chat-row .chat-status');
    assert.deepEqual(
      await marks.evaluateAll((spans) => spans.map((span) => span.firstElementChild?.getAttribute('aria-label') ?? '')),
      ['Working', 'Waits for you: permission: Edit README.md', 'Finished, not seen yet', 'Stopped with an error, not seen yet', ''],
    );
    page.assertClean();
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`looks right at 300 px (${theme}, screenshot)`, async () => {
      const page = await chat.open({ width: 300, height: 520, theme });
      await page.host(snapshot({}, { worktree: WORKTREE }));
      await page.host({
        type: 'chats',
        activeChatId: CHAT_ID,
        chats: [
          chatSummary({ chatId: CHAT_ID, title: 'Fix the parser', activity: 'running', running: true }),
          chatSummary({ chatId: 'c2', title: 'Add tests', activity: 'waiting', waitingFor: 'permission: Edit a.ts' }),
          chatSummary({ chatId: 'c3', title: 'Update docs', activity: 'unread' }),
          chatSummary({ chatId: 'c4', title: 'Refactor', activity: 'failed' }),
        ],
      });
      await page.page.evaluate(() => document.fonts.ready);
      await mkdir(OUT, { recursive: true });
      await page.page.screenshot({ path: `${OUT}/worktree-bar-${theme}.png` });
      await page.host({ type: 'show_chat_list' });
      await page.page.screenshot({ path: `${OUT}/chat-list-status-${theme}.png` });
      page.assertClean();
    });
  }
});
