import assert from 'node:assert/strict';
import { richTranscript } from './support/richTranscript';
import { useChatPages } from './support/suite';

describe('webview: accessibility', () => {
  const chat = useChatPages();

  it('names every control and marks up the conversation as a log', async () => {
    const page = await chat.open();
    for (const message of richTranscript()) {
      await page.host(message);
    }
    const transcript = page.page.locator('.transcript');
    assert.equal(await transcript.getAttribute('role'), 'log');
    assert.equal(await transcript.getAttribute('aria-live'), 'polite');
    const unnamed = await page.page.evaluate(() =>
      Array.from(
        document.querySelectorAll(
          '#app :is(button, vscode-button, textarea, vscode-single-select, [role="button"])',
        ),
      )
        .filter((control) => {
          const name =
            control.getAttribute('aria-label') ?? control.getAttribute('label') ?? control.textContent ?? '';
          return name.trim() === '';
        })
        .map((control) => control.outerHTML.slice(0, 120)),
    );
    assert.deepEqual(unnamed, []);
    assert.equal(await page.page.locator('.tool-status').first().getAttribute('role'), 'img');
  });

  it('reaches the controls by keyboard and shows focus with the theme focus border', async () => {
    const page = await chat.open();
    for (const message of richTranscript()) {
      await page.host(message);
    }
    // The permission prompt took focus; Shift+Tab walks back into the transcript's cards.
    assert.equal(await page.page.evaluate(() => document.activeElement?.textContent), 'Allow');
    const header = page.page.locator('[data-entry-id="e5"] .disclosure-header');
    await header.focus();
    await page.page.keyboard.press('Shift+Tab');
    await page.page.keyboard.press('Tab');
    const outline = await header.evaluate((element) => {
      const style = getComputedStyle(element);
      return `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`;
    });
    assert.equal(outline, 'solid 1px rgb(0, 120, 212)', 'Dark Modern focusBorder');
    await page.page.keyboard.press('Enter');
    assert.equal(await header.getAttribute('aria-expanded'), 'false');
    await page.page.locator('.composer-input').focus();
    await page.page.keyboard.type('typed with the keyboard');
    assert.equal(await page.page.locator('.composer-input').inputValue(), 'typed with the keyboard');
  });
});
