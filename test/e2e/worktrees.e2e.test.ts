/**
 * Chats in worktrees of their own, in a real VS Code with the test agent: two chats started with "ACP:
 * New Chat in Worktree" edit the same file at once, each in its own worktree; the main folder's files,
 * `git status`, HEAD and stash stay as they were (and a hostile post-checkout hook writes nothing) until
 * Apply; Apply brings one back, and the other's clash on the same line opens in the merge editor.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sendPrompt, showChats, UI_TIMEOUT, waitForTurnStatus } from './support/chat';
import { useWorkbench } from './support/lifecycle';
import { userRepo, type UserRepo } from './support/userRepo';
import { screenshot } from './support/workbench';
import { newWorktreeChat, plantHostileHook, waitForMergePanes } from './support/worktreeSteps';
import { until } from '../support/until';

const ORIGINAL = 'one\ntwo\nthree\n';

describe('worktree chats in the real VS Code', () => {
  let user: UserRepo;
  let root: string;
  let repo: string;
  let marker = '';
  const git = (args: readonly string[]): string => user.git(args);
  const userView = () => user.userView();

  const chat = useWorkbench(() => {
    user = userRepo('acp-e2e-worktrees-', ORIGINAL);
    ({ root, repo } = user);
    marker = plantHostileHook(user);
    return { workspace: repo, layout: { width: 1400, height: 900, sidebarWidth: 300 } };
  });
  after(() => user?.dispose());

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
    assert.equal(existsSync(marker), false, "the repository's post-checkout hook never ran");
    await screenshot(page, 'worktree-e2e-header');

    await chat.frame.locator('.worktree-bar vscode-button', { hasText: 'Apply to Workspace' }).click();
    await until(() => readFileSync(join(repo, 'app.txt'), 'utf8') === 'one\ntwo\nsecond agent\n', 'Apply to bring the second chat back', UI_TIMEOUT);
    assert.equal(git(['rev-parse', 'HEAD']), before.head, 'Apply commits nothing');
    assert.equal(git(['stash', 'list']), before.stash);

    // The first chat (it finished meanwhile) clashes on the same line: the merge editor opens.
    await showChats(page, chat.frame);
    await screenshot(page, 'worktree-e2e-list');
    await chat.frame.locator('#chat-list .chat-row').nth(1).locator('.chat-open').click();
    await chat.frame.locator('.worktree-bar .worktree-branch-name', { hasText: first }).waitFor({ timeout: UI_TIMEOUT });
    await waitForTurnStatus(chat.frame, firstTurn, 'completed');
    assert.equal(readFileSync(join(firstFolder, 'app.txt'), 'utf8'), 'one\ntwo\nfirst agent\n');
    await chat.frame.locator('.worktree-bar vscode-button', { hasText: 'Apply to Workspace' }).click();
    await waitForMergePanes(page, 'second agent', 'first agent', 'one');
    assert.match(readFileSync(join(repo, 'app.txt'), 'utf8'), /<<<<<<<[\s\S]*second agent[\s\S]*first agent[\s\S]*>>>>>>>/);
    await screenshot(page, 'worktree-e2e-merge');
  });
});
