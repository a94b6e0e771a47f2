/**
 * What the worktree e2e suites do the way a person does it: start a chat in a worktree (the command, or the
 * empty chat's offer), ask several agents, act on the Compare Agents view, wait for the merge editor's panes,
 * switch the color theme for a second screenshot; and the hostile `post-checkout` hook they plant.
 */
import { strict as assert } from 'node:assert';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { until } from '../../support/until';
import { UI_TIMEOUT } from './chat';
import type { UserRepo } from './userRepo';
import { screenshot } from './workbench';

/**
 * A `post-checkout` hook in the user's repository that would leave a marker file beside it; returns the
 * marker's path (its absence proves the hook never ran).
 */
export function plantHostileHook(user: UserRepo): string {
  const marker = join(user.root, 'HOOK-MARKER');
  const hook = join(user.repo, '.git', 'hooks', 'post-checkout');
  writeFileSync(hook, `#!/bin/sh\necho ran > "${marker}"\n`);
  chmodSync(hook, 0o755);
  return marker;
}

/** The branch the worktree bar shows once the chat works in its worktree. */
async function shownBranch(frame: Frame): Promise<string> {
  const branch = frame.locator('.worktree-bar .worktree-branch-name');
  await branch.waitFor({ state: 'visible', timeout: 60_000 });
  return (await branch.textContent()) ?? '';
}

/** "ACP: New Chat in Worktree", its name taken as suggested; resolves with the branch the bar shows. */
export async function newWorktreeChat(page: Page, frame: Frame): Promise<string> {
  const shown = await frame.evaluate(() => document.body.dataset.chatId);
  // The command's own input box (its name) follows the palette in the same quick input widget.
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.fill('>ACP: New Chat in Worktree');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'ACP: New Chat in Worktree' }).first().click();
  const name = page.locator('.quick-input-widget .quick-input-box input[placeholder^="chat-"]');
  await name.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await name.press('Enter');
  await frame.waitForFunction((before) => document.body.dataset.chatId !== before, shown, { timeout: UI_TIMEOUT });
  return shownBranch(frame);
}

/** The empty chat's "Start in a new worktree", named `name`; resolves with the branch the bar shows. */
export async function startInNewWorktree(page: Page, frame: Frame, name: string): Promise<string> {
  await offerButton(frame, 'Start in a new worktree').click();
  const input = page.locator('.quick-input-widget .quick-input-box input[placeholder^="chat-"]');
  await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await input.fill(name);
  await input.press('Enter');
  return shownBranch(frame);
}

/** One of the empty chat's worktree offers, once it can be clicked (the repository was looked at). */
async function enabledOffer(frame: Frame, label: string): Promise<Locator> {
  await frame.waitForFunction(
    (text) =>
      [...document.querySelectorAll('.worktree-bar vscode-button')].some(
        (b) => b.textContent?.includes(text) && !b.hasAttribute('disabled'),
      ),
    label,
    { timeout: 60_000 },
  );
  return offerButton(frame, label);
}

function offerButton(frame: Frame, label: string): Locator {
  return frame.locator('.worktree-bar vscode-button', { hasText: label });
}

/** The empty chat's "Ask several agents…": `prompt`, then the agents named `agents`. */
export async function askSeveral(page: Page, frame: Frame, prompt: string, agents: readonly string[]): Promise<void> {
  await (await enabledOffer(frame, 'Ask several agents…')).click();
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await page
    .locator('.quick-input-widget', { hasText: 'The prompt every agent gets' })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await input.fill(prompt);
  await input.press('Enter');
  await page
    .locator('.quick-input-widget .quick-input-title', { hasText: 'choose 2 to 6' })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  for (const name of agents) {
    await page
      .locator('.quick-input-widget .monaco-list-row', {
        has: page.locator('.label-name', { hasText: new RegExp(`^${name}$`) }),
      })
      .click();
  }
  await input.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
}

/** The Compare Agents view. */
export function comparison(page: Page): Locator {
  return page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Compare Agents' }) });
}

/** The comparison's row of an agent. */
export function comparisonRow(page: Page, agent: string): Locator {
  return comparison(page).locator('.monaco-list-row', {
    has: page.locator('.label-name', { hasText: new RegExp(`^${agent}$`) }),
  });
}

/** A changed file's row under an expanded run of the comparison (named exactly: the group's prompt may name it too). */
export function comparisonFile(page: Page, name: string): Locator {
  return comparisonRow(page, name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}

/** Clicks a comparison row's inline action (shown on hover). */
export async function comparisonAction(page: Page, agent: string, action: string): Promise<void> {
  const target = comparisonRow(page, agent);
  await target.hover();
  await target.locator(`.action-label[aria-label="${action}"]`).click();
}

/** Waits until every agent's row says `status` and `counts` (e.g. `+1 −3 in 1 file`). */
export async function waitForComparison(
  page: Page,
  agents: readonly string[],
  status: RegExp,
  counts: string,
  timeout = 120_000,
): Promise<void> {
  await until(
    async () => {
      for (const name of agents) {
        const text = (await comparisonRow(page, name).textContent()) ?? '';
        if (!status.test(text) || !text.includes(counts)) {
          return false;
        }
      }
      return true;
    },
    `every agent to show ${status} with ${counts}`,
    timeout,
  );
}

/**
 * The merge editor once settled: its panes show the workspace's side (with `ours`, not `theirs`), the
 * worktree's side (the other way round) and the result, each holding the common `shared` line.
 */
export async function waitForMergePanes(page: Page, ours: string, theirs: string, shared: string): Promise<Locator> {
  const merge = page.locator('.merge-editor').first();
  await merge.waitFor({ state: 'visible', timeout: 60_000 });
  await until(
    async () => {
      // The editor draws spaces as no-break spaces.
      const panes = (await merge.locator('.monaco-editor .view-lines').allInnerTexts()).map((text) =>
        text.replace(/\u00a0/g, ' '),
      );
      return (
        panes.length >= 3 &&
        panes.some((text) => text.includes(ours) && !text.includes(theirs)) &&
        panes.some((text) => text.includes(theirs) && !text.includes(ours)) &&
        panes.every((text) => text.includes(shared))
      );
    },
    'the merge editor’s input and result panes to show their text',
    60_000,
  );
  return merge;
}

/** Switches the color theme the way a person does (Preferences: Color Theme, its label typed), and waits until it shows. */
export async function switchTheme(page: Page, label: string, dark: boolean): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.fill('>Preferences: Color Theme');
  await page
    .locator('.quick-input-widget .monaco-list-row', {
      has: page.locator('.label-name', { hasText: /^Preferences: Color Theme$/ }),
    })
    .click();
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).first().waitFor({ timeout: UI_TIMEOUT });
  await input.fill(label);
  await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: label }).waitFor({ timeout: UI_TIMEOUT });
  await input.press('Enter');
  await page.locator(`.monaco-workbench.${dark ? 'vs-dark' : 'vs'}`).waitFor({ timeout: UI_TIMEOUT });
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
}

/**
 * The comparison's Apply This One on `agent` (its `bytes` land in the user's app.txt; nothing committed
 * or stashed against `before`), then its Discard the Rest, confirmed in the dialog that names `others`
 * worktrees (a screenshot of it as `shot`).
 */
export async function applyThisOneDiscardRest(
  page: Page,
  user: UserRepo,
  step: { agent: string; bytes: string; others: number; before: { head: string; stash: string }; shot?: string },
): Promise<void> {
  await comparisonAction(page, step.agent, 'Apply This One');
  await until(
    () => readFileSync(join(user.repo, 'app.txt'), 'utf8') === step.bytes,
    `Apply to bring ${step.agent}'s bytes`,
    UI_TIMEOUT,
  );
  assert.equal(user.git(['rev-parse', 'HEAD']), step.before.head, 'Apply commits nothing');
  assert.equal(user.git(['stash', 'list']), step.before.stash, 'Apply stashes nothing');

  await comparisonAction(page, step.agent, 'Discard the Rest');
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  assert.match(await dialog.innerText(), new RegExp(`Discard ${step.others} worktrees`));
  if (step.shot) {
    await screenshot(page, step.shot);
  }
  await dialog.locator('.dialog-buttons .monaco-button', { hasText: /^Discard$/ }).click();
}
