import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { changesTranscript } from './support/changesTranscript';
import { richTranscript } from './support/richTranscript';
import { saveForDocs } from './support/docs';
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
      page.assertClean();
    });
  }
});

describe('webview screenshots: the composer', () => {
  const chat = useChatPages();

  for (const theme of ['dark', 'light'] as const) {
    it(`shows a mention chip, a pasted image and every kind of picker entry (${theme})`, async () => {
      const page = await chat.open({ theme, width: 420, height: 520 });
      for (const message of richTranscript()) {
        await page.host(message);
      }
      const input = page.page.locator('.composer-input');
      await input.fill('Why does ');
      await input.press('End');
      await input.pressSequentially('@hel');
      const query = (await page.postedOf('mention_query')).at(-1);
      assert.ok(query);
      await page.host({
        type: 'mention_results',
        requestId: query.requestId,
        items: [{ kind: 'file', uri: 'file:///ws/src/hello.ts', name: 'hello.ts', detail: 'src/hello.ts' }],
      });
      await input.press('Enter');
      await input.pressSequentially('fail like in this screenshot?');
      await page.page.locator('.composer-input').evaluate(async (element) => {
        // A real PNG drawn on a canvas, pasted through a real ClipboardEvent.
        const canvas = document.createElement('canvas');
        canvas.width = 64;
        canvas.height = 40;
        const context = canvas.getContext('2d');
        if (context) {
          context.fillStyle = '#c33';
          context.fillRect(0, 0, 64, 40);
          context.fillStyle = '#fff';
          context.fillRect(8, 16, 48, 8);
        }
        const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
        const transfer = new DataTransfer();
        transfer.items.add(new File([blob ?? new Blob()], 'error.png', { type: 'image/png' }));
        element.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
        );
      });
      await page.page.locator('.composer-image').waitFor();
      await input.pressSequentially(' Also @');
      const second = (await page.postedOf('mention_query')).at(-1);
      assert.ok(second && second.requestId !== query.requestId);
      await page.host({
        type: 'mention_results',
        requestId: second.requestId,
        items: [
          { kind: 'editor', uri: 'file:///ws/src/app.ts', name: 'app.ts', detail: 'src/app.ts · open' },
          {
            kind: 'selection',
            uri: 'file:///ws/src/app.ts',
            name: 'Selection (app.ts:12-18)',
            detail: 'src/app.ts',
            range: { startLine: 12, endLine: 18 },
          },
          { kind: 'folder', uri: 'file:///ws/src', name: 'src/', detail: 'src' },
          {
            kind: 'problems',
            uri: 'file:///ws/src/app.ts',
            name: 'Problems in app.ts',
            detail: 'src/app.ts · 2 problems',
          },
          { kind: 'chat', uri: 'acp-chat:1', name: 'Fix the login flow', detail: 'Earlier chat' },
        ],
      });
      await page.page.locator('.mention-item').first().waitFor();
      await page.page.evaluate(() => document.fonts.ready);
      await mkdir(OUT, { recursive: true });
      await page.page.screenshot({ path: `${OUT}/composer-${theme}.png` });
      if (theme === 'dark') {
        await saveForDocs(`${OUT}/composer-dark.png`, 'composer.png');
      }
      assert.equal(
        await page.page.locator('.composer-chip[data-kind="file"] .chip-label').textContent(),
        'hello.ts',
      );
      page.assertClean();
    });
  }

  it('shows queued messages above the composer while the agent works', async () => {
    const page = await chat.open({ theme: 'dark', width: 420, height: 420 });
    for (const message of richTranscript()) {
      await page.host(message);
    }
    const input = page.page.locator('.composer-input');
    for (const text of ['Then run the whole test suite', 'And update the changelog']) {
      await input.fill(text);
      await input.press('Enter');
    }
    assert.equal(await page.page.locator('.queued-message').count(), 2);
    await page.screenshot('composer-queue-dark');
    page.assertClean();
  });
});
