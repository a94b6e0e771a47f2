/**
 * The tests module VS Code loads in its extension host (`extensionTestsPath`): runs every compiled
 * `*.test.js` under out/integration with mocha and rejects when any test fails, which VS Code turns into
 * the exit code the launcher reports. Launcher-independent: scripts/testIntegration.mjs drives it through
 * code-server, and `@vscode/test-electron` can run the same file in desktop VS Code.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';
import { workspaceRoot } from './support/workspace';

/** Called by VS Code once the extension host is up; settles when mocha is done. */
export function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    timeout: 60_000,
    reporter: 'spec',
    // As in every mocha config here: a stray `.only` or a skipped/pending test fails the run.
    forbidOnly: true,
    forbidPending: true,
    // The extension host's stdout is no terminal; the launcher asks for colours when its own stdout is one.
    color: process.env.MOCHA_COLORS !== undefined,
  });
  const grep = process.env.ACP_TEST_GREP;
  if (grep) {
    mocha.grep(grep);
  }
  for (const file of testFiles(__dirname)) {
    mocha.addFile(file);
  }
  removeLeftoverScratch();
  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        // The same plain closing line as the unit suites' reporter, for tooling that reads it.
        const { passes, pending } = runner.stats ?? { passes: 0, pending: 0 };
        console.log(`${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}`);
        if (failures > 0) {
          reject(new Error(`${failures} integration test(s) failed`));
        } else {
          resolve();
        }
      });
    } catch (error) {
      reject(error);
    }
  });
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.js'))
    .sort()
    .map((file) => join(dir, file));
}

/**
 * A run that was killed leaves its `.it-*` scratch folders in the sample workspace; they would show up in
 * the next run's pickers and lists. (They cannot be git-ignored: the mention tests need the folders unignored.)
 * The folder is the one VS Code opened, not one found from this file: the bench bundles this module elsewhere.
 */
function removeLeftoverScratch(): void {
  const workspace = workspaceRoot();
  for (const entry of readdirSync(workspace)) {
    if (entry.startsWith('.it-')) {
      rmSync(join(workspace, entry), { recursive: true, force: true });
    }
  }
}
