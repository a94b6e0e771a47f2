import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { repoRoot } from '../../scripts/tools.mjs';
import { runCommand } from './support/chat';
import { useWorkbench } from './support/lifecycle';

interface Keybinding {
  readonly command: string;
  readonly key: string;
  readonly mac?: string;
  readonly win?: string;
  readonly linux?: string;
  readonly when?: string;
}

/**
 * The web workbench takes its OS from the browser's user agent, and with it the keybindings VS Code
 * ships for that OS: so one code-server shows the Mac, Windows and Linux defaults in turn.
 */
const SYSTEMS = [
  {
    name: 'macOS',
    variant: 'mac',
    selectAll: 'Meta+A',
    // The browser's own copy key on this (Linux) Chromium: VS Code's web copy runs on the browser's copy event.
    copy: 'Control+C',
    userAgent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  },
  {
    name: 'Windows',
    variant: 'win',
    selectAll: 'Control+A',
    copy: 'Control+C',
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  },
  {
    name: 'Linux',
    variant: 'linux',
    selectAll: 'Control+A',
    copy: 'Control+C',
    userAgent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  },
] as const;

/** A chord as a set of keys, whatever order VS Code writes the modifiers in (`shift+alt+cmd+a`). */
function chord(key: string): string {
  return key
    .toLowerCase()
    .split(' ')
    .map((part) => part.split('+').sort().join('+'))
    .join(' ');
}

const ours = (
  JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    contributes: { keybindings: Keybinding[] };
  }
).contributes.keybindings;

/** The hunk review's commands (every one of its actions has a chord): each is among those checked on every OS. */
const hunkReviewCommands = (
  JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    contributes: { commands: { command: string }[] };
  }
).contributes.commands
  .map((entry) => entry.command)
  .filter((command) => command.startsWith('acpAgents.hunks.'));

describe('keybindings: what the OS suites check', () => {
  it('holds a chord for every command of the hunk review, each only in a text editor', () => {
    assert.ok(
      hunkReviewCommands.length >= 10,
      `the hunk review's commands: ${hunkReviewCommands.join(', ')}`,
    );
    const bound = new Map(ours.map((binding) => [binding.command, binding]));
    assert.deepEqual(
      hunkReviewCommands.filter((command) => !bound.has(command)),
      [],
      'hunk review commands without a chord (so not checked against the defaults)',
    );
    for (const command of hunkReviewCommands) {
      // Only in a text editor (and, but for "Ask for a change…", while changes wait): nothing elsewhere.
      assert.match(
        bound.get(command)?.when ?? '',
        /^editorTextFocus && /,
        `${command} is bound only in an editor`,
      );
    }
  });
});

for (const system of SYSTEMS) {
  describe(`keybindings on ${system.name}: VS Code's own defaults there leave ours free`, () => {
    const wb = useWorkbench({ openChat: false, userAgent: system.userAgent });

    it(`binds each command to its ${system.name} chord, which no other default command uses`, async () => {
      const { page, workbench } = wb;
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: new URL(workbench.server.url).origin,
      });
      // The extension's contributions are in once its activity-bar item shows; the list is made on opening.
      await page
        .locator('.activitybar a.action-label[aria-label^="ACP Agents"]')
        .waitFor({ state: 'visible' });
      await runCommand(page, 'Preferences: Open Default Keyboard Shortcuts (JSON)');
      const editor = page.locator('.editor-instance .monaco-editor .view-lines').first();
      await editor.waitFor({ state: 'visible' });
      await editor.click();
      await page.keyboard.press(system.selectAll);
      await page.keyboard.press(system.copy);
      const text = await page.evaluate(() => navigator.clipboard.readText());
      const defaults = parse(text) as Keybinding[];
      assert.ok(defaults.length > 500, `read ${defaults.length} default keybindings`);

      for (const binding of ours) {
        const key = chord(binding[system.variant] ?? binding.key);
        const shown = defaults.filter((entry) => chord(entry.key) === key);
        assert.ok(
          shown.some((entry) => entry.command === binding.command),
          `${binding.command} is bound to ${key} on ${system.name}: ${JSON.stringify(shown)}`,
        );
        assert.deepEqual(
          shown.filter((entry) => entry.command !== binding.command && !entry.command.startsWith('-')),
          [],
          `other commands on ${key} on ${system.name}`,
        );
      }
    });
  });
}
