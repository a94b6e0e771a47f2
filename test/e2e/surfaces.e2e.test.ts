/**
 * A focused look at the chat's surfaces in the real VS Code, in Light and Dark Modern, at VS Code's default
 * sidebar width (300 px) and a narrowed one (240 px): one header (the view title's actions, naming the
 * chat), the empty chat with Add Agent… in view, a change card that cuts folders before file names, the
 * edit-and-resend strip laid out in lines, the chat list, a form that takes the keyboard, and a spinner
 * that stands still under reduced motion. Each is also a picture: test-results/surfaces-<theme>-<width>-*.png.
 */
import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { repoRoot } from '../../scripts/tools.mjs';
import {
  sendPrompt,
  setLayout,
  showChats,
  turn,
  UI_TIMEOUT,
  viewTitle,
  waitForTurnStatus,
  WorkspaceTempFolder,
} from './support/chat';
import { THEMES, useWorkbench } from './support/lifecycle';

/** The sidebar alone, as a person looks at it. */
async function sidebarShot(page: Page, name: string): Promise<void> {
  await page
    .locator('[id="workbench.parts.sidebar"]')
    .screenshot({ path: resolve(repoRoot, 'test-results', `${name}.png`) });
}

/** The view title's actions, in order (without VS Code's own "Views and More Actions…"). */
async function titleActions(page: Page): Promise<string[]> {
  const labels = await page
    .locator('[id="workbench.parts.sidebar"] .title-actions a.action-label')
    .evaluateAll((links) => links.map((link) => link.getAttribute('aria-label') ?? ''));
  return labels.filter((label) => !label.startsWith('Views and More Actions'));
}

/** What has focus in the chat's page. */
function focusedClass(frame: Frame): Promise<string> {
  return frame.evaluate(() => document.activeElement?.className ?? '');
}

for (const [theme, colorTheme] of THEMES) {
  describe(`the chat's surfaces in the real VS Code (${theme})`, () => {
    let folder: WorkspaceTempFolder;
    before(() => {
      folder = new WorkspaceTempFolder('surfaces');
    });
    const chat = useWorkbench({
      settings: { 'workbench.colorTheme': colorTheme },
      layout: { width: 1200, height: 860, sidebarWidth: 300 },
      newChatEachTest: true,
    });
    after(() => folder?.dispose());

    for (const width of [300, 240]) {
      it(`at ${width} px: one header, the empty chat, a change card, the edit strip, the chat list, a form`, async () => {
        const { page, frame } = chat;
        await setLayout(page, { width: 1200, height: 860, sidebarWidth: width });
        const shot = (what: string): Promise<void> => sidebarShot(page, `surfaces-${theme}-${width}-${what}`);

        // One header: the chat's actions are the view title's, and the page has no title row of its own.
        assert.deepEqual(await titleActions(page), [
          'New Chat',
          'Show Chats',
          'Open Chat in Editor',
          'Show Agent Log',
        ]);
        assert.equal(await frame.locator('.chat-header button:not(#chat-list *)').count(), 0);
        await viewTitle(page)
          .filter({ hasText: /: New chat$/ })
          .waitFor({ timeout: UI_TIMEOUT });

        // The empty chat: Add Agent… is in view without scrolling.
        const add = frame.locator('.empty-state .empty-add-agent');
        await add.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        assert.ok(await add.evaluate((button) => button.getBoundingClientRect().bottom < innerHeight / 2));
        await shot('empty');

        // A change card: the folder gives way before the file name.
        const file = `${folder.path.split('/').at(-1)}/src/features/checkpoints/core/obsoleteCheckpointCleaner.ts`;
        const wrote = await sendPrompt(frame, `own write ${file} export const width = ${width};`);
        await waitForTurnStatus(frame, wrote, 'completed');
        const row = turn(frame, wrote).locator('.change-row').first();
        await row.waitFor({ timeout: UI_TIMEOUT });
        const parts = await row.evaluate((element) => {
          const name = element.querySelector<HTMLElement>('.change-name');
          return {
            nameCut: (name?.scrollWidth ?? 0) > (name?.clientWidth ?? 0),
            folder: element.querySelector('.change-folder')?.getBoundingClientRect().width ?? 0,
          };
        });
        assert.ok(
          !parts.nameCut || parts.folder < 1,
          `the name is cut while ${parts.folder} px of folder show`,
        );
        // The view's title names the chat now.
        await viewTitle(page)
          .filter({ hasText: /: own write/i })
          .waitFor({ timeout: UI_TIMEOUT });
        await shot('change-card');

        // Edit and resend: the strip's text, checkbox and Cancel lie in lines, none over another.
        const message = turn(frame, wrote).locator('article.entry-user');
        await message.hover();
        await message.getByRole('button', { name: 'Edit and resend' }).click();
        const strip = frame.locator('.edit-strip');
        await strip.waitFor({ timeout: UI_TIMEOUT });
        const boxes = await strip.evaluate((element) =>
          ['.edit-strip-text', '.edit-restore', 'button'].map((selector) => {
            const box = element.querySelector(selector)?.getBoundingClientRect();
            return box ? { x: box.x, y: box.y, width: box.width, height: box.height } : undefined;
          }),
        );
        const [text, restore, cancel] = boxes;
        assert.ok(text && restore && cancel, 'the strip shows its text, the restore checkbox and Cancel');
        assert.ok(text.width >= 140, `the text is ${text.width} px wide, not a column of words`);
        for (const [a, b] of [
          [text, restore],
          [text, cancel],
          [restore, cancel],
        ] as const) {
          const apart =
            a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
          assert.ok(apart, 'two parts of the strip overlap');
        }
        await shot('edit-strip');
        await strip.getByRole('button', { name: 'Cancel editing' }).click();
        await frame.locator('.composer-input').fill('');

        // The chat list, from the view title.
        await showChats(page, frame);
        await shot('chat-list');
        await page.keyboard.press('Escape');
        await frame.locator('#chat-list').waitFor({ state: 'hidden', timeout: UI_TIMEOUT });

        // A form: it takes the keyboard from the message just sent; its errors are shown; Esc gives it back.
        const asked = await sendPrompt(frame, 'elicit form');
        const form = frame.locator('form.elicitation-form');
        await form.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await frame.waitForFunction(
          () => document.activeElement?.closest('form.elicitation-form') !== null,
          undefined,
          {
            timeout: UI_TIMEOUT,
          },
        );
        await page.keyboard.press('Enter');
        await form.locator('.elicitation-error:not([hidden])').first().waitFor({ timeout: UI_TIMEOUT });
        await shot('form');
        await page.keyboard.press('Escape');
        await waitForTurnStatus(frame, asked, 'completed');
        await frame.waitForFunction(
          () => document.activeElement?.classList.contains('composer-input') === true,
          undefined,
          {
            timeout: UI_TIMEOUT,
          },
        );
        assert.match(await focusedClass(frame), /composer-input/);
      });
    }

    it('under reduced motion the working spinner stands still', async () => {
      const { page, frame } = chat;
      await page.emulateMedia({ reducedMotion: 'reduce' });
      try {
        const waiting = await sendPrompt(frame, 'hang');
        const spinner = turn(frame, waiting).locator('.turn-working .codicon-loading');
        await spinner.waitFor({ timeout: UI_TIMEOUT });
        assert.equal(await spinner.evaluate((icon) => icon.getAnimations().length), 0);
        await sidebarShot(page, `surfaces-${theme}-reduced-motion`);
        await frame.getByRole('button', { name: 'Stop the agent' }).click();
        await waitForTurnStatus(frame, waiting, 'cancelled');
      } finally {
        await page.emulateMedia({ reducedMotion: null });
      }
    });
  });
}
