import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { richTranscript } from './support/richTranscript';
import { useChatPages } from './support/suite';

const OUT = resolve(__dirname, '../../test-results');

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
  }
});
