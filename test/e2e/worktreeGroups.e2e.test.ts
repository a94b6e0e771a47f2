/**
 * "Ask several agents…" in a real VS Code with the test agent under three names (each writes its own name
 * into app.txt for the same prompt): the empty chat's button asks the prompt and the agents, each runs in a
 * worktree of its own, and the Compare Agents view lists them with their status and +/− lines; the main
 * folder's file, `git status`, HEAD and stash stay as they were until Apply This One, which brings that
 * agent's bytes; Discard the Rest (one question) removes the others' worktrees and branches. Screenshots
 * of the comparison in the light and the dark theme.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/tools.mjs';
import { UI_TIMEOUT } from './support/chat';
import { THEMES, useWorkbench } from './support/lifecycle';
import { userRepo, type UserRepo } from './support/userRepo';
import { screenshot } from './support/workbench';
import { applyThisOneDiscardRest, askSeveral, comparisonFile, comparisonRow, waitForComparison } from './support/worktreeSteps';
import { until } from '../support/until';

const ORIGINAL = 'one\ntwo\nthree\n';
const PROMPT = 'own shell echo "$WHO" > app.txt';
const AGENTS = [
  ['Alpha', 'alpha'],
  ['Beta', 'beta'],
  ['Gamma', 'gamma'],
] as const;
const NAMES = AGENTS.map(([name]) => name);

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

    it('asks three agents, each in its own worktree; the comparison lists them; Apply This One brings one back and Discard the Rest removes the others', async function () {
      this.timeout(300_000);
      const { page } = chat;
      const before = user.userView();
      await askSeveral(page, chat.frame, PROMPT, NAMES);
      await waitForComparison(page, NAMES, /finished/, '+1 −3 in 1 file');
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
      await comparisonRow(page, 'Beta').locator('.monaco-tl-twistie').click();
      const changedFile = comparisonFile(page, 'app.txt');
      await changedFile.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await page.mouse.move(0, 0);
      await changedFile.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await screenshot(page, `worktree-groups-compare-${theme}`);
      if (theme === 'dark') {
        return; // the steps below ran in the light theme's window
      }

      await applyThisOneDiscardRest(page, user, { agent: 'Beta', bytes: 'beta\n', others: 2, before, shot: 'worktree-groups-discard' });
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
          /discarded/.test((await comparisonRow(page, 'Alpha').textContent()) ?? '') &&
          /discarded/.test((await comparisonRow(page, 'Gamma').textContent()) ?? '') &&
          /applied/.test((await comparisonRow(page, 'Beta').textContent()) ?? ''),
        'Alpha and Gamma to show discarded, Beta applied',
        UI_TIMEOUT,
      );
      await page.mouse.move(0, 0);
      await screenshot(page, 'worktree-groups-after');
    });
  });
}
