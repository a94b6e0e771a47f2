import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { changesTranscript } from './support/changesTranscript';
import { richTranscript } from './support/richTranscript';
import { useChatPages } from './support/suite';

const OUT = resolve(__dirname, '../../test-results');
const DOCS = resolve(__dirname, '../../docs');

describe('webview screenshots', () => {
  const chat = useChatPages();

  for (const theme of ['dark', 'light'] as const) {
    it(`renders a rich transcript in the ${theme} theme`, async () => {
      const page = await chat.open({ theme, width: 420, height: 900 });
      for (const message of richTranscript()) {
        await page.host(message);
      }
      // Fonts (codicons) must have loaded for the picture to mean anything.
      await page.page.evaluate(() => document.fonts.ready);
      const iconFont = await page.page.evaluate(() => document.fonts.check('16px codicon'));
      assert.equal(iconFont, true, 'codicon font loaded');
      await mkdir(OUT, { recursive: true });
      // Following the stream: the newest part (permission prompt, terminal, plan, composer).
      await page.page.screenshot({ path: `${OUT}/webview-${theme}.png` });
      // The start of the same transcript (user message, thinking, markdown with code).
      await page.page.locator('.transcript').evaluate((log) => log.scrollTo({ top: 0 }));
      await page.page.locator('.jump-latest').waitFor();
      await page.page.screenshot({ path: `${OUT}/webview-${theme}-top.png` });
      page.assertClean();
    });

    it(`renders the change review in the ${theme} theme`, async () => {
      const page = await chat.open({ theme, width: 420, height: 940 });
      for (const message of changesTranscript()) {
        await page.host(message);
      }
      await page.page.evaluate(() => document.fonts.ready);
      assert.equal(await page.page.evaluate(() => document.fonts.check('16px codicon')), true);
      // The picture must show what it is of: the card with its actions, the restore mark and action.
      assert.equal(await page.page.locator('.turn-changes[data-turn-id="t2"] .change-row').count(), 5);
      assert.equal(await page.page.locator('.restored-mark').isVisible(), true);
      await page.page.locator('.transcript').evaluate((log) => log.scrollTo({ top: log.scrollHeight }));
      await mkdir(OUT, { recursive: true });
      await page.page.screenshot({ path: `${OUT}/changes-${theme}.png` });
      if (theme === 'dark') {
        // The README's picture of the change review (an e2e run in a real VS Code may replace it).
        await page.page.screenshot({ path: `${DOCS}/changes.png` });
      }
      page.assertClean();
    });
  }
});
