/**
 * "Ask several agents…" in a real VS Code with the test agent under three names (each writes its own name
 * into app.txt for the same prompt): the empty chat's button asks the prompt and the agents, each runs in a
 * worktree of its own, and the Compare Agents view lists them with their status and +/− lines; the main
 * folder's file, `git status`, HEAD and stash stay as they were until Apply This One, which brings that
 * agent's bytes; Discard the Rest (one question) removes the others' worktrees and branches. Screenshots
 * of the comparison in the light and the dark theme.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { repoRoot } from '../../scripts/tools.mjs';
import { UI_TIMEOUT } from './support/chat';
import { THEMES, useWorkbench } from './support/lifecycle';
import { userRepo, type UserRepo } from './support/userRepo';
import { until } from '../support/until';

const ORIGINAL = 'one\ntwo\nthree\n';
const PROMPT = 'own shell echo "$WHO" > app.txt';
const AGENTS = [
  ['Alpha', 'alpha'],
  ['Beta', 'beta'],
  ['Gamma', 'gamma'],
] as const;

for (const [theme, colorTheme] of THEMES) {
  describe(`"Ask several agents…" and the comparison in the real VS Code (${theme})`, () => {
    let user: UserRepo;

    const chat = useWorkbench(() => {
      user = userRepo('acp-e2e-groups-', ORIGINAL);
      return {
        workspace: user.repo,
        layout: { width: 1400, height: 900, sidebarWidth: 520 },
        settings: {
          'workbench.colorTheme': colorTheme,
          'acpAgents.agents': AGENTS.map(([name, who]) => ({
            name,
            command: process.execPath,
            args: [join(repoRoot, 'dist', 'demo-agent.js')],
            env: { WHO: who },
          })),
        },
      };
    });
    after(() => user?.dispose());

    /** The comparison's row of an agent. */
    const row = (page: Page, agent: string): Locator =>
      page
        .locator('.pane', { has: page.locator('.pane-header', { hasText: 'Compare Agents' }) })
        .locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${agent}$`) }) });

    /** Clicks a row's inline action (shown on hover). */
    async function rowAction(page: Page, agent: string, action: string): Promise<void> {
      const target = row(page, agent);
      await target.hover();
      await target.locator(`.action-label[aria-label="${action}"]`).click();
    }

    /** The empty chat's "Ask several agents…": the prompt, then the three agents. */
    async function askSeveral(page: Page): Promise<void> {
      const button = chat.frame.locator('.worktree-bar vscode-button', { hasText: 'Ask several agents…' });
      await chat.frame.waitForFunction(
        () =>
          [...document.querySelectorAll('.worktree-bar vscode-button')].some(
            (b) => b.textContent?.includes('Ask several agents') && !b.hasAttribute('disabled'),
          ),
        undefined,
        { timeout: 60_000 },
      );
      await button.click();
      const input = page.locator('.quick-input-widget .quick-input-box input');
      await page
        .locator('.quick-input-widget', { hasText: 'The prompt every agent gets' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await input.fill(PROMPT);
      await input.press('Enter');
      await page
        .locator('.quick-input-widget .quick-input-title', { hasText: 'choose 2 to 6' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      for (const [name] of AGENTS) {
        await page
          .locator('.quick-input-widget .monaco-list-row', {
            has: page.locator('.label-name', { hasText: new RegExp(`^${name}$`) }),
          })
          .click();
      }
      await input.press('Enter');
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    }

    it('asks three agents, each in its own worktree; the comparison lists them; Apply This One brings one back and Discard the Rest removes the others', async function () {
      this.timeout(300_000);
      const { page } = chat;
      const before = user.userView();
      await askSeveral(page);
      for (const [name] of AGENTS) {
        await row(page, name).waitFor({ state: 'visible', timeout: 60_000 });
      }
      await until(
        async () => {
          for (const [name] of AGENTS) {
            const text = (await row(page, name).textContent()) ?? '';
            if (!/finished/.test(text) || !/\+1 −3 in 1 file/.test(text)) {
              return false;
            }
          }
          return true;
        },
        'every agent to finish with its change counted',
        120_000,
      );
      const folders = AGENTS.map(([name]) => {
        const branch = user.git(['branch', '--list', `acp/${name.toLowerCase()}-*`, '--format=%(refname:short)']).trim();
        assert.ok(branch, `${name} has a branch of its own`);
        return { name, branch, folder: join(user.root, 'project.worktrees', branch.replace(/^acp\//, '')) };
      });
      for (const [i, [, who]] of AGENTS.entries()) {
        assert.equal(readFileSync(join(folders[i]!.folder, 'app.txt'), 'utf8'), `${who}\n`);
      }
      assert.deepEqual(user.userView(), before, "the main folder's file, status, HEAD and stash are as they were");
      // Expanded: the changed file under a run.
      await row(page, 'Beta').locator('.monaco-tl-twistie').click();
      const changedFile = page
        .locator('.pane', { has: page.locator('.pane-header', { hasText: 'Compare Agents' }) })
        .locator('.monaco-list-row', { hasText: 'app.txt' });
      await changedFile.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await page.mouse.move(0, 0);
      await changedFile.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await page.screenshot({ path: join(resultsDir(), `worktree-groups-compare-${theme}.png`) });
      if (theme === 'dark') {
        return; // the steps below ran in the light theme's window
      }

      await rowAction(page, 'Beta', 'Apply This One');
      await until(() => readFileSync(join(user.repo, 'app.txt'), 'utf8') === 'beta\n', "Apply to bring Beta's change", UI_TIMEOUT);
      assert.equal(user.git(['rev-parse', 'HEAD']), before.head, 'Apply commits nothing');
      assert.equal(user.git(['stash', 'list']), before.stash);

      await rowAction(page, 'Beta', 'Discard the Rest');
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await dialog.innerText(), /Discard 2 worktrees/);
      await page.screenshot({ path: join(resultsDir(), 'worktree-groups-discard.png') });
      await dialog.locator('.dialog-buttons .monaco-button', { hasText: /^Discard$/ }).click();
      const gone = [folders[0]!, folders[2]!];
      await until(
        () => gone.every(({ folder, branch }) => !existsSync(folder) && user.git(['branch', '--list', branch]) === ''),
        'the other worktrees and their branches to go',
        UI_TIMEOUT,
      );
      assert.ok(existsSync(folders[1]!.folder), "Beta's worktree stays");
      assert.equal(readFileSync(join(user.repo, 'app.txt'), 'utf8'), 'beta\n');
      await until(
        async () =>
          /discarded/.test((await row(page, 'Alpha').textContent()) ?? '') &&
          /discarded/.test((await row(page, 'Gamma').textContent()) ?? '') &&
          /applied/.test((await row(page, 'Beta').textContent()) ?? ''),
        'Alpha and Gamma to show discarded, Beta applied',
        UI_TIMEOUT,
      );
      await page.mouse.move(0, 0);
      await page.screenshot({ path: join(resultsDir(), 'worktree-groups-after.png') });
    });
  });
}

function resultsDir(): string {
  const dir = join(__dirname, '..', '..', 'test-results');
  mkdirSync(dir, { recursive: true });
  return dir;
}
