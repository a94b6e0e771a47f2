/**
 * Hunks in the real VS Code: a turn of the test agent (writing files itself) changes 3 hunks in 2 files;
 * the editor shows them with Keep / Undo on each, the keyboard visits every one ("Change 2 of 3 · file 1 of
 * 2"), half are kept and half undone (the bytes after are the expected mix, exactly), and a note asked on a
 * line reaches the agent with the next message. Light and dark, with screenshots.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import {
  openFile,
  runCommand,
  sendPrompt,
  turn,
  UI_TIMEOUT,
  waitForTurnStatus,
  WorkspaceTempFolder,
} from './support/chat';
import { THEMES, useWorkbench } from './support/lifecycle';
import { until } from '../support/until';
import { repoRoot } from '../../scripts/tools.mjs';

/** The status bar's "Change n of m · file i of k" once it says `text`. */
async function statusSays(page: Page, text: string): Promise<void> {
  await page
    .locator('.statusbar-item', { hasText: text })
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
}

/** a.txt with its first change kept and its second undone. */
const A_AFTER = 'one\r\nTWO\r\nthree\r\nfour\r\nfive\r\nsix';

/** How many CodeLenses `title` the active editor shows. */
function lenses(page: Page, title: string): Promise<number> {
  return page
    .locator('.editor-group-container.active .codelens-decoration a', { hasText: new RegExp(`^${title}$`) })
    .count();
}

/** Clicks the CodeLens `title` of the `nth` hunk shown in the active editor. */
async function clickLens(page: Page, title: string, nth = 0): Promise<void> {
  const lens = page
    .locator(
      '.editor-instance.active .codelens-decoration a, .editor-group-container.active .codelens-decoration a',
      {
        hasText: new RegExp(`^${title}$`),
      },
    )
    .nth(nth);
  await lens.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await lens.click();
}

/** "Ask for a change…" on line `line` of `file` (opened first: the chat took the focus), with `note`. */
async function askForChange(page: Page, file: string, line: number, note: string): Promise<void> {
  await openFile(page, file);
  await page.keyboard.press('Control+G');
  // Typed once the "go to line" box is there, as a person does (else the digits would go into the file).
  const goTo = page.locator('.quick-input-widget .quick-input-box input');
  await goTo.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await page.keyboard.type(String(line));
  await page.keyboard.press('Enter');
  await goTo.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
  await page.keyboard.press('Shift+End');
  await runCommand(page, 'ACP: Ask the Agent for a Change…', { asks: 'Ask for a change' });
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.fill(note);
  await input.press('Enter');
}

for (const [theme, colorTheme] of THEMES) {
  describe(`hunks of the agent's changes in the editor (${theme})`, () => {
    let folder: WorkspaceTempFolder;
    before(() => {
      folder = new WorkspaceTempFolder(`hunks-${theme}`);
    });
    const chat = useWorkbench({
      // Client writes wait for review: their hunks show in the file before they land.
      settings: { 'workbench.colorTheme': colorTheme, 'acpAgents.edits.review': 'ask' },
      layout: { width: 1500, height: 900, sidebarWidth: 420 },
      newChatEachTest: true,
    });
    after(() => folder?.dispose());

    const rel = (name: string): string => `${basename(folder.path)}/${name}`;
    const shot = (page: Page, what: string): Promise<Buffer> =>
      page.screenshot({ path: join(repoRoot, 'test-results', `hunks-${theme}-${what}.png`) });

    it('3 hunks in 2 files: visited by keyboard, half kept and half undone byte-exact, a note reaches the agent', async () => {
      const { page, frame } = chat;
      const a = folder.file('a.txt');
      const b = folder.file('b.txt');
      writeFileSync(a, 'one\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix');
      writeFileSync(b, 'x\ny\n');
      // A shell-writing agent: it copies prepared bytes (CRLF, no final newline) over the files.
      const outside = mkdtempSync(join(tmpdir(), 'acp-hunks-'));
      writeFileSync(join(outside, 'a'), 'one\r\nTWO\r\nthree\r\nfour\r\nfive\r\nSIX');
      writeFileSync(join(outside, 'b'), 'x\ny\nz\n');
      const turnId = await sendPrompt(
        frame,
        `own shell cp ${join(outside, 'a')} ${rel('a.txt')} ; shell cp ${join(outside, 'b')} ${rel('b.txt')}`,
      );
      await waitForTurnStatus(frame, turnId, 'completed');
      await turn(frame, turnId).locator('.change-card').waitFor({ state: 'visible', timeout: UI_TIMEOUT });

      await openFile(page, 'a.txt');
      await page
        .locator('.codelens-decoration a', { hasText: /^Keep$/ })
        .first()
        .waitFor({ timeout: UI_TIMEOUT });
      // By keyboard (our chord, shadowing none of VS Code's): every hunk, across both files.
      await page.keyboard.press('Control+Alt+Shift+.');
      await statusSays(page, 'Change 1 of 3 · file 1 of 2');
      await shot(page, 'a');
      await page.keyboard.press('Control+Alt+Shift+.');
      await statusSays(page, 'Change 2 of 3 · file 1 of 2');
      await page.keyboard.press('Control+Alt+Shift+.');
      await statusSays(page, 'Change 3 of 3 · file 2 of 2');
      await page
        .locator('.tabs-container .tab.active', { hasText: 'b.txt' })
        .waitFor({ timeout: UI_TIMEOUT });
      await page.keyboard.press('Control+Alt+Shift+,');
      await statusSays(page, 'Change 2 of 3 · file 1 of 2');

      // Keep the first change of a.txt (CodeLens), undo its second and b.txt's (keyboard).
      await clickLens(page, 'Keep', 0);
      await statusSays(page, 'Change 1 of 2 · file 1 of 2');
      await until(async () => (await lenses(page, 'Keep')) === 1, 'one hunk left in a.txt');
      // The cursor is still on the change it was at ("SIX"): the keyboard's Undo takes it back.
      await page.keyboard.press('Control+Alt+Shift+U');
      await until(() => readFileSync(a, 'latin1') === A_AFTER, 'a.txt half kept');
      await openFile(page, 'b.txt');
      await statusSays(page, 'Change 1 of 1 · file 1 of 1');
      await page.keyboard.press('Control+Alt+Shift+U');
      await until(() => readFileSync(b, 'latin1') === 'x\ny\n', 'b.txt undone');
      // Byte-exact: CRLF and the missing final newline kept.
      assert.ok(readFileSync(a).equals(Buffer.from(A_AFTER, 'latin1')));
      assert.ok(readFileSync(b).equals(Buffer.from('x\ny\n')));
      await turn(frame, turnId).getByText('Kept').waitFor({ timeout: UI_TIMEOUT });
      await shot(page, 'decided');

      // "Ask for a change…" on line 2 of a.txt: a chip on the composer and a comment thread on the line.
      await askForChange(page, 'a.txt', 2, 'make it lowercase');
      await frame.getByText('Change a.txt:2').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const threads = page.locator('.editor-group-container.active .review-widget');
      await threads
        .filter({ hasText: 'make it lowercase' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      // A second note, then its chip removed in the composer: its thread goes too.
      await askForChange(page, 'a.txt', 1, 'drop this line');
      await threads.filter({ hasText: 'drop this line' }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await shot(page, 'note');
      await frame.getByRole('button', { name: 'Remove Change a.txt:1' }).click();
      await threads.filter({ hasText: 'drop this line' }).waitFor({ state: 'detached', timeout: UI_TIMEOUT });
      assert.equal(await threads.filter({ hasText: 'make it lowercase' }).count(), 1);
      const next = await sendPrompt(frame, 'please');
      await waitForTurnStatus(frame, next, 'completed');
      const said = await turn(frame, next).locator('article.entry-agent').allTextContents();
      assert.match(
        said.join(' '),
        new RegExp(`resource ${pathToFileURL(a).href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}#L2-L2`),
      );
      assert.doesNotMatch(said.join(' '), /#L1-L1/, 'the removed note does not go');
      // Sent: the note is no longer waiting, in the composer or the editor.
      await threads.first().waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    });

    it('a client write waiting for review: its hunks in the file, kept and undone one by one, the mix lands byte-exact', async () => {
      const { page, frame } = chat;
      const c = folder.file('c.txt');
      writeFileSync(c, 'a\nb\nc\nd\ne\nf\n');
      const turnId = await sendPrompt(frame, `fs write ${c} a\\nB\\nc\\nd\\nE\\nf\\nG\\n`);
      // The edit review's diff editor opens; the file itself shows the same changes, on its old text.
      await page
        .locator('.tabs-container .tab', { hasText: "c.txt: agent's proposal" })
        .waitFor({ timeout: UI_TIMEOUT });
      // Its path in the chat's list of edits to review opens the file (quick open does not know it yet).
      await frame.locator('.reviews-items .path-text', { hasText: 'c.txt' }).click();
      await page
        .locator('.tabs-container .tab.active', { hasText: /^c\.txt/ })
        .waitFor({ timeout: UI_TIMEOUT });
      await until(async () => (await lenses(page, 'Keep')) === 3, 'three proposed hunks with Keep');
      await shot(page, 'proposed');
      await clickLens(page, 'Keep', 0);
      await until(async () => (await lenses(page, 'Keep')) === 2, 'B kept');
      await clickLens(page, 'Undo', 0);
      await until(async () => (await lenses(page, 'Keep')) === 1, 'E dropped');
      assert.equal(readFileSync(c, 'utf8'), 'a\nb\nc\nd\ne\nf\n', 'nothing lands while a hunk waits');
      await clickLens(page, 'Keep', 0);
      await waitForTurnStatus(frame, turnId, 'completed');
      await until(() => readFileSync(c, 'latin1') === 'a\nB\nc\nd\ne\nf\nG\n', 'the mix written');
      assert.ok(readFileSync(c).equals(Buffer.from('a\nB\nc\nd\ne\nf\nG\n')));
    });
  });
}
