/**
 * Chats in worktrees of their own, in a real VS Code with the test agent: two chats started with "ACP:
 * New Chat in Worktree" edit the same file at once, each in its own worktree; the main folder's files,
 * `git status`, HEAD and stash stay as they were (and a hostile post-checkout hook writes nothing) until
 * Apply; Apply brings one back, and the other's clash on the same line opens in the merge editor.
 */
import { strict as assert } from 'node:assert';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { sendPrompt, showChats, UI_TIMEOUT, waitForTurnStatus } from './support/chat';
import { useWorkbench } from './support/lifecycle';
import { userRepo, type UserRepo } from './support/userRepo';
import { until } from '../support/until';

const ORIGINAL = 'one\ntwo\nthree\n';

describe('worktree chats in the real VS Code', () => {
  let user: UserRepo;
  let root: string;
  let repo: string;
  const git = (args: readonly string[]): string => user.git(args);
  const userView = () => user.userView();

  const chat = useWorkbench(() => {
    user = userRepo('acp-e2e-worktrees-', ORIGINAL);
    ({ root, repo } = user);
    const hook = join(repo, '.git', 'hooks', 'post-checkout');
    writeFileSync(hook, `#!/bin/sh\necho ran > "${join(root, 'HOOK-MARKER')}"\n`);
    chmodSync(hook, 0o755);
    return { workspace: repo, layout: { width: 1400, height: 900, sidebarWidth: 300 } };
  });
  after(() => user?.dispose());

  /** "ACP: New Chat in Worktree", its name taken as suggested; resolves with the branch the bar shows. */
  async function newWorktreeChat(page: Page, frame: Frame): Promise<string> {
    const shown = await frame.evaluate(() => document.body.dataset.chatId);
    // The command's own input box (its name) follows the palette in the same quick input widget.
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.fill('>ACP: New Chat in Worktree');
    await page
      .locator('.quick-input-widget .monaco-list-row', { hasText: 'ACP: New Chat in Worktree' })
      .first()
      .click();
    const name = page.locator('.quick-input-widget .quick-input-box input[placeholder^="chat-"]');
    await name.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await name.press('Enter');
    await frame.waitForFunction((before) => document.body.dataset.chatId !== before, shown, { timeout: UI_TIMEOUT });
    const branch = frame.locator('.worktree-bar .worktree-branch-name');
    await branch.waitFor({ state: 'visible', timeout: 60_000 });
    return (await branch.textContent()) ?? '';
  }

  it('two chats edit one file at once in two worktrees; the main folder is untouched until Apply, which brings one back and shows the clash', async function () {
    this.timeout(300_000);
    const { page } = chat;
    const before = userView();
    const first = await newWorktreeChat(page, chat.frame);
    // The first turn is not awaited: the second chat starts while the first one's agent works.
    const firstTurn = await sendPrompt(chat.frame, 'own write app.txt one\\ntwo\\nfirst agent\\n');
    const second = await newWorktreeChat(page, chat.frame);
    assert.notEqual(first, second);
    const secondTurn = await sendPrompt(chat.frame, 'own write app.txt one\\ntwo\\nsecond agent\\n');
    await waitForTurnStatus(chat.frame, secondTurn, 'completed');
    const firstFolder = join(root, 'project.worktrees', first.replace(/^acp\//, ''));
    const secondFolder = join(root, 'project.worktrees', second.replace(/^acp\//, ''));
    await chat.frame.waitForFunction(() => /in 1 file/.test(document.querySelector('.worktree-changes')?.textContent ?? ''), undefined, { timeout: UI_TIMEOUT });
    assert.equal(readFileSync(join(secondFolder, 'app.txt'), 'utf8'), 'one\ntwo\nsecond agent\n');
    assert.deepEqual(userView(), before, "the main folder's file, status, HEAD and stash are as they were");
    assert.equal(existsSync(join(root, 'HOOK-MARKER')), false, "the repository's post-checkout hook never ran");
    await page.screenshot({ path: join(resultsDir(), 'worktree-e2e-header.png') });

    await chat.frame.locator('.worktree-bar vscode-button', { hasText: 'Apply to Workspace' }).click();
    await until(() => readFileSync(join(repo, 'app.txt'), 'utf8') === 'one\ntwo\nsecond agent\n', 'Apply to bring the second chat back', UI_TIMEOUT);
    assert.equal(git(['rev-parse', 'HEAD']), before.head, 'Apply commits nothing');
    assert.equal(git(['stash', 'list']), before.stash);

    // The first chat (it finished meanwhile) clashes on the same line: the merge editor opens.
    await showChats(page, chat.frame);
    await page.screenshot({ path: join(resultsDir(), 'worktree-e2e-list.png') });
    await chat.frame.locator('#chat-list .chat-row').nth(1).locator('.chat-open').click();
    await chat.frame.locator('.worktree-bar .worktree-branch-name', { hasText: first }).waitFor({ timeout: UI_TIMEOUT });
    await waitForTurnStatus(chat.frame, firstTurn, 'completed');
    assert.equal(readFileSync(join(firstFolder, 'app.txt'), 'utf8'), 'one\ntwo\nfirst agent\n');
    await chat.frame.locator('.worktree-bar vscode-button', { hasText: 'Apply to Workspace' }).click();
    const merge = page.locator('.merge-editor').first();
    await merge.waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(readFileSync(join(repo, 'app.txt'), 'utf8'), /<<<<<<<[\s\S]*second agent[\s\S]*first agent[\s\S]*>>>>>>>/);
    // Settled: each pane shows its text — the workspace's side, the worktree's side and the result.
    await until(
      async () => {
        // The editor draws spaces as no-break spaces.
        const panes = (await merge.locator('.monaco-editor .view-lines').allInnerTexts()).map((text) =>
          text.replace(/\u00a0/g, ' '),
        );
        return (
          panes.length >= 3 &&
          panes.some((text) => text.includes('second agent') && !text.includes('first agent')) &&
          panes.some((text) => text.includes('first agent') && !text.includes('second agent')) &&
          panes.every((text) => text.includes('one'))
        );
      },
      'the merge editor’s input and result panes to show their text',
      60_000,
    );
    await page.screenshot({ path: join(resultsDir(), 'worktree-e2e-merge.png') });
  });
});

function resultsDir(): string {
  const dir = join(__dirname, '..', '..', 'test-results');
  mkdirSync(dir, { recursive: true });
  return dir;
}
