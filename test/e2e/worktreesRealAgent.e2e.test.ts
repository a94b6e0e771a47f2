/**
 * Chats in worktrees with a real agent, in a real VS Code: every agent is the unmodified claude-code-acp
 * adapter (Claude Code inside), configured in the workbench's `acpAgents.agents`, its model a scripted stub
 * in this process (test/e2e/support/realAgents.ts). It writes through `fs/write_text_file` and asks
 * permission before each write (answered inline, `acpAgents.permissions.ask: inline`).
 *
 * Two chats in two worktrees edit the same line of one file at once; one of them asks its permission while
 * another chat is on screen: the view's badge counts it and a notification's Open Chat shows it. The main
 * folder's bytes, `git status`, HEAD and stash stay as they were (and a hostile post-checkout hook writes
 * nothing) until Apply; Apply brings one back, the other's clash opens in the merge editor. Then "Ask
 * several agents…" with three of them: the Compare Agents view, Apply This One and Discard the Rest.
 * Screenshots of the merge editor and the comparison in the light and the dark theme.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { worktreeName } from '../../src/features/worktrees/core/worktreeFolder';
import { newChat, runCommand, sendPrompt, showChats, UI_TIMEOUT, waitForTurnStatus } from './support/chat';
import { THEMES, useWorkbench, type WorkbenchLifecycle } from './support/lifecycle';
import { realAgent, type RealAgent } from './support/realAgents';
import { userRepo, type UserRepo } from './support/userRepo';
import { screenshot } from './support/workbench';
import {
  askSeveral,
  comparisonFile,
  applyThisOneDiscardRest,
  comparisonRow,
  plantHostileHook,
  startInNewWorktree,
  switchTheme,
  waitForComparison,
  waitForMergePanes,
} from './support/worktreeSteps';
import { until } from '../support/until';

const ORIGINAL = 'one\ntwo\nthree\n';
const [[, LIGHT]] = THEMES;
/** Quiet settings every suite here needs: writes land without a review, permissions are asked in the chat. */
const QUIET = {
  'acpAgents.edits.review': 'auto',
  'acpAgents.permissions.ask': 'inline',
  'acpAgents.notifications.chatStatus': 'whenHidden',
  'workbench.colorTheme': LIGHT,
  // Claude Code starts in ~2 s alone, but several of them start here at once on a shared machine.
  'acpAgents.timeouts.startSeconds': 180,
  'acpAgents.timeouts.sessionSeconds': 180,
};
/** How long a real agent's step may take (a model round trip through Claude Code, several at once). */
const AGENT_TIMEOUT = 180_000;

/** On a failure, what each agent's model was asked and answered: where a run stopped. */
function reportModelRequests(agents: readonly RealAgent[]): void {
  afterEach(function () {
    if (this.currentTest?.state === 'failed') {
      for (const agent of agents) {
        const asked = agent.stub.requests.map((request) => `${request.method} ${request.path} → ${request.answer}`);
        console.log(`    [${agent.name}] gate waiting ${agent.gate?.waiting ?? 0}; ${asked.join('; ') || 'no requests'}`);
      }
    }
  });
}

/**
 * The suite's workbench on a fresh repository (`prefix`), with the real agents `start` puts in `agents` in
 * its settings; on a failure each one's model requests are printed, and the agents (those started, should
 * one fail to) and the repository end with the suite.
 */
function useRealAgents(
  prefix: string,
  sidebarWidth: number,
  agents: RealAgent[],
  start: (user: UserRepo) => Promise<void>,
): WorkbenchLifecycle {
  let user: UserRepo | undefined;
  const chat = useWorkbench(async () => {
    user = userRepo(prefix, ORIGINAL);
    await start(user);
    return {
      workspace: user.repo,
      layout: { width: 1400, height: 900, sidebarWidth },
      settings: { ...QUIET, 'acpAgents.agents': agents.map((agent) => agent.setting) },
    };
  });
  reportModelRequests(agents);
  after(async () => {
    await Promise.all(agents.map((agent) => agent.dispose()));
    user?.dispose();
  });
  return chat;
}

/** Picks the empty chat's agent in its header. */
async function chooseAgent(frame: Frame, name: string): Promise<void> {
  await frame.locator('.picker-select[aria-label="Agent"]').selectOption({ label: name });
  await frame.waitForFunction(
    (label) => document.querySelector<HTMLSelectElement>('.picker-select[aria-label="Agent"]')?.selectedOptions[0]?.label === label,
    name,
    { timeout: UI_TIMEOUT },
  );
}

/** The turn's inline permission once the agent asks; clicks Allow. */
async function allowInline(frame: Frame, turnId: string): Promise<void> {
  const permission = frame.locator(`section.turn[data-turn-id="${turnId}"] .permission[data-status="pending"]`);
  await permission.waitFor({ state: 'visible', timeout: AGENT_TIMEOUT });
  await permission.locator('vscode-button[data-option-kind="allow_once"]').click();
}

/** The number on the ACP Agents view's activity bar item ('' when it shows none). */
async function viewBadge(page: Page): Promise<string> {
  const badge = page
    .locator('.activitybar li.action-item', { has: page.locator('a.action-label[aria-label^="ACP Agents"]') })
    .locator('.badge-content');
  return (await badge.count()) > 0 && (await badge.isVisible()) ? ((await badge.textContent()) ?? '').trim() : '';
}

describe('worktree chats with the real claude-code-acp adapter in the real VS Code', () => {
  let user: UserRepo;
  let marker = '';
  const agents: RealAgent[] = [];
  const folder = (name: string): string => join(user.root, 'project.worktrees', name);
  const edit = (line: string) => ({ kind: 'write', path: '', content: `one\ntwo\n${line}\n` }) as const;

  const chat = useRealAgents('acp-e2e-wt-real-', 440, agents, async (made) => {
    user = made;
    marker = plantHostileHook(user);
    // Each chat's agent has its own stub: each writes its own line, at the path of its own worktree.
    agents.push(
      await realAgent('Claude First', { ...edit('first agent'), path: join(folder('first'), 'app.txt') }, { gated: true }),
      await realAgent('Claude Second', { ...edit('second agent'), path: join(folder('second'), 'app.txt') }),
    );
  });

  it('two chats edit one line at once in two worktrees; the hidden one asking permission raises the badge and a notification that opens it; Apply brings one back and the clash opens in the merge editor', async function () {
    this.timeout(900_000);
    const { page } = chat;
    const [first, second] = agents as [RealAgent, RealAgent];
    const before = user.userView();

    await chooseAgent(chat.frame, first.name);
    assert.equal(await startInNewWorktree(page, chat.frame, 'first'), 'acp/first');
    // Its model request waits at the gate: the permission comes once the chat is off screen.
    first.gate?.hold();
    const firstTurn = await sendPrompt(chat.frame, 'First: end app.txt with my line', { timeout: AGENT_TIMEOUT });
    await until(() => (first.gate?.waiting ?? 0) > 0, 'the first agent to ask its model', AGENT_TIMEOUT);

    await newChat(page, chat.frame);
    await chooseAgent(chat.frame, second.name);
    assert.equal(await startInNewWorktree(page, chat.frame, 'second'), 'acp/second');
    const secondTurn = await sendPrompt(chat.frame, 'Second: end app.txt with my line', { timeout: AGENT_TIMEOUT });
    await allowInline(chat.frame, secondTurn);
    await waitForTurnStatus(chat.frame, secondTurn, 'completed', { timeout: AGENT_TIMEOUT });
    assert.equal(readFileSync(join(folder('second'), 'app.txt'), 'utf8'), 'one\ntwo\nsecond agent\n');
    assert.equal(readFileSync(join(folder('first'), 'app.txt'), 'utf8'), ORIGINAL, 'the first worktree is its own');
    assert.equal(await viewBadge(page), '', 'no chat waits yet');

    // The first chat, not on screen, asks now: the badge counts it, a notification offers to open it.
    first.gate?.release();
    await until(async () => (await viewBadge(page)) === '1', 'the view’s badge to count the waiting chat', AGENT_TIMEOUT);
    // The notification, in VS Code's list of notifications (its toast may have timed out or not shown).
    await runCommand(page, 'Notifications: Show Notifications');
    const notification = page.locator('.notifications-center .notification-list-item', { hasText: /waits for you/ });
    await notification.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.match(await notification.innerText(), /“First: end app\.txt with my line” waits for you \(permission: Write .*first\/app\.txt\)/i);
    await screenshot(page, 'worktree-real-waiting');
    await notification.locator('.monaco-button', { hasText: 'Open Chat' }).click();
    await chat.frame.locator('.worktree-bar .worktree-branch-name', { hasText: 'acp/first' }).waitFor({ timeout: UI_TIMEOUT });
    await allowInline(chat.frame, firstTurn);
    await waitForTurnStatus(chat.frame, firstTurn, 'completed', { timeout: AGENT_TIMEOUT });
    await until(async () => (await viewBadge(page)) === '', 'the badge to clear once answered', UI_TIMEOUT);
    assert.equal(readFileSync(join(folder('first'), 'app.txt'), 'utf8'), 'one\ntwo\nfirst agent\n');
    assert.equal(readFileSync(join(folder('second'), 'app.txt'), 'utf8'), 'one\ntwo\nsecond agent\n');
    assert.deepEqual(user.userView(), before, "the main folder's file, status, HEAD and stash are as they were");
    assert.equal(existsSync(marker), false, "the repository's post-checkout hook never ran");

    // Apply the first: its bytes in the main folder; nothing committed, nothing stashed.
    await chat.frame.waitForFunction(() => /in 1 file/.test(document.querySelector('.worktree-changes')?.textContent ?? ''), undefined, { timeout: UI_TIMEOUT });
    await chat.frame.locator('.worktree-bar vscode-button', { hasText: 'Apply to Workspace' }).click();
    await until(() => readFileSync(join(user.repo, 'app.txt'), 'utf8') === 'one\ntwo\nfirst agent\n', 'Apply to bring the first chat back', UI_TIMEOUT);
    assert.equal(user.git(['rev-parse', 'HEAD']), before.head, 'Apply commits nothing');
    assert.equal(user.git(['stash', 'list']), before.stash);

    // The second clashes on the same line: the merge editor opens with both sides.
    await showChats(page, chat.frame);
    await chat.frame.locator('#chat-list .chat-row', { hasText: 'Second:' }).locator('.chat-open').click();
    await chat.frame.locator('.worktree-bar .worktree-branch-name', { hasText: 'acp/second' }).waitFor({ timeout: UI_TIMEOUT });
    await chat.frame.locator('.worktree-bar vscode-button', { hasText: 'Apply to Workspace' }).click();
    await waitForMergePanes(page, 'first agent', 'second agent', 'one');
    assert.match(readFileSync(join(user.repo, 'app.txt'), 'utf8'), /<<<<<<<[\s\S]*first agent[\s\S]*second agent[\s\S]*>>>>>>>/);
    await screenshot(page, 'worktree-real-merge-light');
    await switchTheme(page, 'Dark Modern', true);
    await waitForMergePanes(page, 'first agent', 'second agent', 'one');
    await screenshot(page, 'worktree-real-merge-dark');
  });
});

const GROUP = [
  ['Alpha', 'alpha'],
  ['Beta', 'beta'],
  ['Gamma', 'gamma'],
] as const;
const GROUP_PROMPT = 'Put your name in app.txt';

describe('"Ask several agents…" with three real claude-code-acp adapters in the real VS Code', () => {
  let user: UserRepo;
  const agents: RealAgent[] = [];
  /** Where a group's run of `label` works: its worktree is named after the agent and the prompt. */
  const runFolder = (label: string): string =>
    join(user.root, 'project.worktrees', worktreeName(`${label} ${GROUP_PROMPT}`));

  const chat = useRealAgents('acp-e2e-groups-real-', 520, agents, async (made) => {
    user = made;
    for (const [label, who] of GROUP) {
      // This user lets Claude Code edit without asking (its own settings): the runs go on unattended.
      const script = { kind: 'write', path: join(runFolder(label), 'app.txt'), content: `${who}\n` } as const;
      agents.push(await realAgent(label, script, { allow: ['Edit'] }));
    }
  });

  it('each agent works in its own worktree; the comparison lists their status and +/− lines; Apply This One brings its bytes back and Discard the Rest removes the others', async function () {
    this.timeout(900_000);
    const { page } = chat;
    const names = GROUP.map(([label]) => label);
    const before = user.userView();
    await askSeveral(page, chat.frame, GROUP_PROMPT, names);
    await waitForComparison(page, names, /finished/, '+1 −3 in 1 file', 2 * AGENT_TIMEOUT);
    for (const [label, who] of GROUP) {
      assert.equal(readFileSync(join(runFolder(label), 'app.txt'), 'utf8'), `${who}\n`);
    }
    assert.deepEqual(user.userView(), before, "the main folder's file, status, HEAD and stash are as they were");
    // Each agent's model wrote through its own adapter: one write each.
    for (const agent of agents) {
      assert.equal(agent.stub.requests.filter((request) => request.answer === 'mcp__acp__Write').length, 1, agent.name);
    }

    await comparisonRow(page, 'Beta').locator('.monaco-tl-twistie').click();
    await comparisonFile(page, 'app.txt').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await page.mouse.move(0, 0);
    await screenshot(page, 'worktree-real-compare-light');
    await switchTheme(page, 'Dark Modern', true);
    await screenshot(page, 'worktree-real-compare-dark');
    await switchTheme(page, 'Light Modern', false);

    await applyThisOneDiscardRest(page, user, { agent: 'Beta', bytes: 'beta\n', others: 2, before });
    const kept = `acp/${worktreeName(`Beta ${GROUP_PROMPT}`)}`;
    await until(
      () =>
        !existsSync(runFolder('Alpha')) &&
        !existsSync(runFolder('Gamma')) &&
        user.git(['branch', '--list', 'acp/*', '--format=%(refname:short)']).trim() === kept,
      'the other worktrees and their branches to go',
      UI_TIMEOUT,
    );
    assert.ok(existsSync(runFolder('Beta')), "Beta's worktree stays");
    assert.equal(readFileSync(join(user.repo, 'app.txt'), 'utf8'), 'beta\n');
  });
});
